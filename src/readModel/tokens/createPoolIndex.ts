import type { PoolRow } from '../../db/index.ts';
import { toJson, type Json } from '../json.ts';
import { COMPLETE_HISTORY, type HistoryView } from '../historyView.ts';
import type { PoolPage } from '../types.ts';
import { compareDecimals } from './compareDecimals.ts';
import { toPool } from './toPool.ts';

/** The pools the catalogue holds, by address and by token. */
export type PoolIndex = {
  get(address: string): PoolRow | undefined;
  /** A new index with these rows added or replaced (the catalogue swaps it in once its tokens are ready). */
  with(rows: readonly PoolRow[]): PoolIndex;
  /** `{data, meta}` of a token's pools, liquidity descending (none last), then address ascending. */
  page(token: string, page: number, limit: number): Json<PoolPage>;
};

/** Liquidity descending, pools without one last, then the address ascending. */
export function comparePools(a: PoolRow, b: PoolRow): number {
  if (a.liquidity !== b.liquidity) {
    if (a.liquidity === null || b.liquidity === null) return a.liquidity === null ? 1 : -1;
    const c = Number(b.liquidity) - Number(a.liquidity) || compareDecimals(b.liquidity, a.liquidity);
    if (c !== 0) return c;
  }
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/**
 * A token has a handful of pools: its page is sorted and serialised when asked for (the response
 * cache keeps the answer for the data version).
 */
export function createPoolIndex(rows: readonly PoolRow[] = [], view: HistoryView = COMPLETE_HISTORY): PoolIndex {
  return build(new Map(rows.map((r) => [r.address, r])), view);
}

function build(byAddress: Map<string, PoolRow>, view: HistoryView): PoolIndex {
  const byToken = new Map<string, PoolRow[]>();
  for (const row of byAddress.values()) {
    for (const token of new Set([row.token0, row.token1])) {
      const list = byToken.get(token);
      if (list) list.push(row);
      else byToken.set(token, [row]);
    }
  }
  return {
    get: (address) => byAddress.get(address),
    with(rows) {
      if (rows.length === 0) return this;
      const next = new Map(byAddress);
      for (const r of rows) next.set(r.address, r);
      return build(next, view);
    },
    page(token, page, limit) {
      const all = [...(byToken.get(token) ?? [])].sort(comparePools);
      const start = (page - 1) * limit;
      return toJson<PoolPage>({
        data: all.slice(start, start + limit).map((row) => toPool(row, view)),
        meta: { page, limit, totalItemsCount: all.length, pagesCount: Math.ceil(all.length / limit) },
      });
    },
  };
}
