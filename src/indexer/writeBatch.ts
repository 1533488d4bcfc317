// A batch's write step: every row the batch changes and its checkpoint, in one transaction fenced
// on the checkpoint it continues from, so they land together or not at all.
import type { BlockHeader } from '../chain/index.ts';
import { appendPricePoints, applyRetention, recordSwaps, refreshSwapCounts, rollupCandles, upsertPools, upsertTokens } from '../db/index.ts';
import { retentionDefaults } from '../config/retentionConfig.ts';
import {
  prunePoolStates, saveBlocks, saveFeedAnswers, saveIndexerTokens, savePoolStates, savePools, savePositionChanges, savePriceChanges, writeCheckpoint,
  type IndexerToken, type StoredPool,
} from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { buildPoolWrites } from './buildPoolWrites.ts';
import { buildTokenWrites } from './buildTokenWrites.ts';
import { createPoolFigures } from './pricing/poolFigures.ts';
import { loadWindowPrices } from './pricing/priceWindows.ts';
import type { Replay } from './replayBlocks.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { writeTokenTrust } from './trust/writeTokenTrust.ts';

const PRUNE_EVERY = 1000;

export type BatchWrite = {
  from: number;
  to: number;
  /** The checkpoint's block the batch continues from; null for the first batch. */
  parentBlock: number | null;
  headers: ReadonlyMap<number, BlockHeader>;
  newPools: readonly StoredPool[];
  /** Tokens new in the batch or whose supplies changed. */
  changedTokens: readonly IndexerToken[];
  replay: Replay;
};

export async function writeBatch(ctx: IndexerContext, state: IndexerState, batch: BatchWrite): Promise<void> {
  const { config, db } = ctx;
  const { from, to, replay } = batch;
  const header = batch.headers.get(to)!;
  const toTime = new Date(header.timestamp * 1000);
  const affected = new Set<string>([...batch.changedTokens.map((t) => t.address), ...replay.traded, ...replay.priceChanges.map((c) => c.token)]);
  for (const [token, p] of state.prices) if (p.price !== null) affected.add(token);
  // Pool rows: new and changed pools, and every pool of a token whose price moved (its USD liquidity).
  const touchedPools = new Set<string>([...batch.newPools.map((p) => p.address), ...replay.changedPools]);
  for (const change of replay.priceChanges) for (const address of state.poolsByToken.get(change.token) ?? []) touchedPools.add(address);
  for (const address of touchedPools) {
    const pool = state.pools.get(address)!;
    affected.add(pool.token0).add(pool.token1);
  }
  const figures = createPoolFigures(state);
  await db.transaction(async (tx) => {
    await ctx.fence(tx, batch.parentBlock);
    await saveIndexerTokens(tx, batch.changedTokens);
    await savePools(tx, batch.newPools);
    await savePoolStates(tx, replay.poolStates);
    await savePositionChanges(tx, replay.positions);
    await savePriceChanges(tx, replay.priceChanges);
    await saveFeedAnswers(tx, replay.feedAnswers);
    const tokens = [...affected].sort();
    const pricesAgo = await loadWindowPrices(tx, toTime, tokens);
    await upsertTokens(tx, buildTokenWrites(state, tokens, { pricesAgo, at: toTime, pricing: ctx.pricing, listedSymbols: ctx.listedSymbols, figures }));
    await upsertPools(tx, buildPoolWrites(state, [...touchedPools].sort(), figures));
    await appendPricePoints(
      tx,
      replay.priceChanges.filter((c) => c.price !== null).map((c) => ({ token: c.token, price: c.price!, observedAt: c.observedAt, blockNumber: c.blockNumber })),
    );
    await recordSwaps(tx, replay.swaps);
    // Candles from the same price changes and valued swaps, as the batch writes them.
    await rollupCandles(tx, replay.priceChanges, replay.swaps);
    await refreshSwapCounts(tx, toTime, state.swaps24h);
    await writeTokenTrust(tx, ctx, state, figures, toTime);
    const stored = [...batch.headers.values()].map((h) => ({ number: h.number, hash: h.hash, time: new Date(h.timestamp * 1000) }));
    await saveBlocks(tx, stored, config.reorgDepth);
    // Pool-state history below the oldest stored hash can never be rolled back to: keep only the latest row.
    if (Math.floor((from - 1) / PRUNE_EVERY) !== Math.floor(to / PRUNE_EVERY)) {
      const oldest = await tx.query<{ n: string | null }>(`SELECT min(block_number)::text AS n FROM indexer_blocks`);
      if (oldest[0]?.n) await prunePoolStates(tx, Number(oldest[0].n));
    }
    // Swaps, price changes, hourly prices and candles behind their retention, in bounded statements;
    // here, not per batch, as each table's pruning costs a few statements even when nothing is due.
    const retention = config.retention ?? retentionDefaults;
    if (Math.floor((from - 1) / retention.everyBlocks) !== Math.floor(to / retention.everyBlocks)) await applyRetention(tx, retention, toTime);
    await writeCheckpoint(tx, { chainId: ctx.chainId, blockNumber: to, blockHash: header.hash, blockTime: toTime });
  });
}
