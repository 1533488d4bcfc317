import type { Indexer } from '../../../src/indexer/index.ts';

/** Syncs until the indexer reports it has caught up; returns the number of steps. */
export async function runToHead(indexer: Indexer, maxSteps = 10_000): Promise<number> {
  for (let steps = 1; steps <= maxSteps; steps++) {
    const result = await indexer.syncOnce();
    if (result.caughtUp) return steps;
  }
  throw new Error('indexer did not catch up');
}
