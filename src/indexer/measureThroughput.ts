// Backfill throughput on a chain: indexes [startBlock, head] into a fresh in-memory database and
// reports blocks/s and swaps/s (used by the benchmark and by docs/indexer.md numbers).
import { createChainClient } from '../chain/index.ts';
import type { IndexerConfig } from '../config/indexerConfig.ts';
import { createDatabase, type Database } from '../db/index.ts';
import { createIndexer } from './createIndexer.ts';

export type ThroughputReport = {
  blocks: number;
  /** Swap events (each stored as one row per token of its pool). */
  swaps: number;
  batches: number;
  requests: number;
  durationMs: number;
  blocksPerSecond: number;
  swapsPerSecond: number;
};

export async function measureThroughput(options: { url: string; chainId?: number; config: IndexerConfig; db?: Database }): Promise<ThroughputReport> {
  const db = options.db ?? (await createDatabase({ pgliteDir: 'memory://' }));
  const chain = createChainClient({ url: options.url });
  try {
    const indexer = createIndexer({ db, chain, config: options.config });
    const started = performance.now();
    let swaps = 0;
    let batches = 0;
    let blocks = 0;
    for (;;) {
      const result = await indexer.syncOnce();
      if (result.batch) {
        swaps += result.batch.swapEvents;
        batches++;
        blocks += result.batch.toBlock - result.batch.fromBlock + 1;
      }
      if (result.caughtUp) break;
    }
    const durationMs = performance.now() - started;
    const perSecond = (n: number) => Math.round((n / durationMs) * 1000 * 10) / 10;
    return {
      blocks, swaps, batches, requests: chain.stats().requests, durationMs: Math.round(durationMs),
      blocksPerSecond: perSecond(blocks), swapsPerSecond: perSecond(swaps),
    };
  } finally {
    chain.destroy();
    if (!options.db) await db.close();
  }
}
