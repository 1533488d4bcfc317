// The indexer's dependencies as an operator watches them: an outage of the chain node or the
// database is logged once when it begins (the first failed step) and once when it ends (the first
// step that succeeds), with its duration; the failed steps in between are logged at debug only.
import { ChainError } from '../chain/index.ts';
import type { Dependency } from '../errors/index.ts';
import { isDatabaseFault } from '../db/index.ts';
import type { IndexerLogger } from './context/IndexerLogger.ts';

export type IndexerDependency = Extract<Dependency, 'database' | 'chain node'>;

export type Outage = { dependency: IndexerDependency; since: Date };

export type OutageLog = {
  /** A step failed: returns the dependency it failed for (undefined: not an outage, a bug or bad data). */
  failed(error: unknown): IndexerDependency | undefined;
  /** A step succeeded: ends the outages under way. */
  succeeded(): void;
  /** The dependency answered (a request to the node did, before the step is done): ends its outage. */
  answered(dependency: IndexerDependency): void;
  /** The outages under way. */
  current(): Outage[];
};

/** The dependency an error says is down: the database, the chain node (a retryable failure), or none. */
export function dependencyOf(error: unknown): IndexerDependency | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 16; depth++) {
    // A node's socket error carries the same codes (ECONNREFUSED, ...) as the database's: the class first.
    if (current instanceof ChainError) return current.retryable ? 'chain node' : undefined;
    if (isDatabaseFault(current)) return 'database';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function createOutageLog(logger: IndexerLogger, retryMaxMs: number): OutageLog {
  const open = new Map<IndexerDependency, Date>();
  return {
    failed(error) {
      const dependency = dependencyOf(error);
      if (!dependency) return undefined;
      if (open.has(dependency)) {
        logger.debug({ err: error, dependency }, 'indexer step failed again; retrying');
      } else {
        open.set(dependency, new Date());
        logger.warn({ err: error, dependency, retryMaxMs }, `${dependency} outage began: indexing paused, retrying at most retryMaxMs apart`);
      }
      return dependency;
    },
    succeeded() {
      for (const dependency of [...open.keys()]) this.answered(dependency);
    },
    answered(dependency) {
      const since = open.get(dependency);
      if (!since) return;
      open.delete(dependency);
      logger.info({ dependency, outageMs: Date.now() - since.getTime(), since: since.toISOString() }, `${dependency} outage ended: indexing resumed`);
    },
    current: () => [...open].map(([dependency, since]) => ({ dependency, since })),
  };
}
