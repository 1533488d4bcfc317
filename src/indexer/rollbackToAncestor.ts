// Reorg handling: find the newest stored block the chain still has, drop everything above it and
// rebuild the token rows as they were at that block.
import { readTotalSupplies } from '../chain/index.ts';
import { refreshSwapCounts, upsertPools, upsertTokens } from '../db/index.ts';
import {
  deleteCheckpoint, listStoredBlocks, loadIndexerTokens, rollbackAbove, saveIndexerTokens, writeCheckpoint,
  type CheckpointWithHistory, type StoredBlock,
} from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { loadIndexerState, type IndexerState } from './state/IndexerState.ts';
import { buildPoolWrites } from './buildPoolWrites.ts';
import { writeTokenTrust } from './trust/writeTokenTrust.ts';
import { buildTokenWrites } from './buildTokenWrites.ts';
import { createPoolFigures } from './pricing/poolFigures.ts';
import { loadWindowPrices } from './pricing/priceWindows.ts';

export type RollbackResult = { from: number; to: number };

export async function rollbackToAncestor(ctx: IndexerContext, checkpoint: CheckpointWithHistory): Promise<{ result: RollbackResult; state: IndexerState }> {
  const { chain, db, config } = ctx;
  let ancestor: StoredBlock | null = null;
  for (const stored of await listStoredBlocks(db, checkpoint.blockNumber)) {
    const onChain = await chain.getBlockHeader(stored.number);
    if (onChain && onChain.hash === stored.hash) {
      ancestor = stored;
      break;
    }
  }
  // Below a head-first bootstrap block nothing can be rolled back to (the catalogue was read at
  // that block): everything is dropped and the next step bootstraps again.
  const bootstrap = checkpoint.history?.bootstrapBlock ?? null;
  if (ancestor && bootstrap !== null && ancestor.number < bootstrap) ancestor = null;
  const target = ancestor?.number ?? config.startBlock - 1;
  if (!ancestor) ctx.logger.error({ checkpoint: checkpoint.blockNumber }, 'reorg deeper than the stored block hashes or the bootstrap block: re-indexing from startBlock');

  // Supplies read after the fork point are re-read at the ancestor (outside the transaction).
  const stale = ancestor
    ? (await loadIndexerTokens(db)).filter((t) => t.firstSeenBlock <= target && t.supplyBlock > target)
    : [];
  const supplies = await readTotalSupplies(chain, stale.map((t) => t.address), target, config.multicall3);

  const state = await db.transaction(async (tx) => {
    await ctx.fence(tx, checkpoint.blockNumber);
    await rollbackAbove(tx, target);
    if (!ancestor) {
      // Candles carried from a bootstrap belong to no block (last_block 0): dropped with the rest.
      await tx.query(`DELETE FROM candles`);
      await deleteCheckpoint(tx);
      return loadIndexerState(tx);
    }
    await saveIndexerTokens(tx, stale.map((t, i) => ({ ...t, totalSupply: supplies[i] ?? t.totalSupply, supplyBlock: target })));
    const state = await loadIndexerState(tx);
    const pricesAgo = await loadWindowPrices(tx, ancestor.time);
    const figures = createPoolFigures(state);
    await upsertTokens(tx, buildTokenWrites(state, [...state.tokens.keys()].sort(), {
      pricesAgo, at: ancestor.time, pricing: ctx.pricing, listedSymbols: ctx.listedSymbols, figures,
    }));
    await upsertPools(tx, buildPoolWrites(state, [...state.pools.keys()].sort(), figures));
    await refreshSwapCounts(tx, ancestor.time, state.swaps24h);
    await writeTokenTrust(tx, ctx, state, figures, ancestor.time);
    await writeCheckpoint(tx, { chainId: ctx.chainId, blockNumber: ancestor.number, blockHash: ancestor.hash, blockTime: ancestor.time });
    return state;
  });
  return { result: { from: checkpoint.blockNumber, to: target }, state };
}
