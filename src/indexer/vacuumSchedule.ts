// Where the server's autovacuum is off, the indexer vacuums the tables it rewrites itself, once
// every `everyBlocks` indexed blocks, in the background: the steps go on beside it (VACUUM takes no
// lock a write waits for) and at most one runs at a time. PGlite and servers with autovacuum on
// are left alone.
import type { Database } from '../db/index.ts';
import { autovacuumRuns, vacuumTables } from '../db/indexer/index.ts';
import type { IndexerLogger } from './context/IndexerLogger.ts';

export type VacuumSchedule = {
  /** After a step committed blocks up to `block`: starts a vacuum when a multiple of everyBlocks was crossed since the last step. */
  afterStep(block: number): void;
  /** Resolves when no vacuum is running (stop, tests). */
  settled(): Promise<void>;
};

export function createVacuumSchedule({ db, everyBlocks, logger }: { db: Database; everyBlocks: number; logger: IndexerLogger }): VacuumSchedule {
  let needed: Promise<boolean> | null = null;
  let running: Promise<void> | null = null;
  let lastBlock: number | null = null;
  const isNeeded = () =>
    (needed ??= autovacuumRuns(db).then((on) => {
      const off = db.kind === 'postgres' && !on;
      if (off) logger.info({ everyBlocks }, 'autovacuum is off on this server: the indexer vacuums the tables it rewrites itself');
      return off;
    }, (error: unknown) => {
      needed = null; // asked again at the next multiple
      throw error;
    }));
  return {
    afterStep(block) {
      const crossed = lastBlock !== null && everyBlocks > 0 && Math.floor(lastBlock / everyBlocks) !== Math.floor(block / everyBlocks);
      lastBlock = block;
      if (!crossed || running) return;
      running = (async () => {
        if (!(await isNeeded())) return;
        const ms = await vacuumTables(db);
        logger.debug({ ms, block }, 'vacuumed the tables the indexer rewrites');
      })()
        .catch((error: unknown) => logger.warn({ err: error }, 'vacuum failed; tried again at the next multiple'))
        .finally(() => {
          running = null;
        });
    },
    settled: async () => {
      await running;
    },
  };
}
