// What the indexer keeps in memory between batches; always equal to what is stored once a batch commits.
import type { Queryable } from '../db/index.ts';
import { parseFixed } from './fixed.ts';
import { loadIndexerTokens, loadPools, loadPricesAt, type IndexerToken, type StoredPool } from '../db/indexer/index.ts';

/** `source`: the pool the price comes from; null for stablecoins and no price. */
export type CurrentPrice = { price: bigint | null; blockNumber: number; observedAt: Date; source: string | null };

export type IndexerState = {
  tokens: Map<string, IndexerToken>;
  pools: Map<string, StoredPool>;
  poolsByToken: Map<string, Set<string>>;
  prices: Map<string, CurrentPrice>;
};

export async function loadIndexerState(db: Queryable): Promise<IndexerState> {
  const state: IndexerState = { tokens: new Map(), pools: new Map(), poolsByToken: new Map(), prices: new Map() };
  for (const token of await loadIndexerTokens(db)) state.tokens.set(token.address, token);
  for (const pool of await loadPools(db)) addPool(state, pool);
  for (const [token, change] of await loadPricesAt(db, null)) {
    state.prices.set(token, {
      price: change.price === null ? null : parseFixed(change.price),
      blockNumber: change.blockNumber,
      observedAt: change.observedAt,
      source: change.source ?? null,
    });
  }
  return state;
}

export function addPool(state: IndexerState, pool: StoredPool): void {
  state.pools.set(pool.address, pool);
  for (const token of [pool.token0, pool.token1]) {
    let set = state.poolsByToken.get(token);
    if (!set) state.poolsByToken.set(token, (set = new Set()));
    set.add(pool.address);
  }
}
