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
 * How many rows an index keeps beside the ones it was built from before it builds again from
 * all: an indexer step changes a few pools, and building the index per step costs every pool
 * (tens of thousands on the reference network) on the request path.
 */
const OVERLAY_SHARE = 1 / 8;
const OVERLAY_MIN = 256;

/**
 * A token has a handful of pools: its page is sorted and serialised when asked for (the response
 * cache keeps the answer for the data version).
 */
export function createPoolIndex(rows: readonly PoolRow[] = [], view: HistoryView = COMPLETE_HISTORY): PoolIndex {
  return build(new Map(rows.map((r) => [r.address, r])), view);
}

/** The pools of `byAddress` by token (a pool's tokens never change). */
function byToken(byAddress: ReadonlyMap<string, PoolRow>): Map<string, PoolRow[]> {
  const tokens = new Map<string, PoolRow[]>();
  for (const row of byAddress.values()) {
    for (const token of new Set([row.token0, row.token1])) {
      const list = tokens.get(token);
      if (list) list.push(row);
      else tokens.set(token, [row]);
    }
  }
  return tokens;
}

function build(base: ReadonlyMap<string, PoolRow>, view: HistoryView): PoolIndex {
  return overlay(base, byToken(base), new Map(), view);
}

/**
 * An index of `base` with `changed` over it: rows replaced or added since `base` was built. No
 * map is changed once an index exists (a load prepares the next index while this one answers).
 */
function overlay(base: ReadonlyMap<string, PoolRow>, baseByToken: ReadonlyMap<string, PoolRow[]>, changed: ReadonlyMap<string, PoolRow>, view: HistoryView): PoolIndex {
  // the pools added since the base, by token (replaced ones are found through the base's lists)
  const addedByToken = byToken(new Map([...changed].filter(([address]) => !base.has(address))));
  return {
    get: (address) => changed.get(address) ?? base.get(address),
    with(rows) {
      if (rows.length === 0) return this;
      const next = new Map(changed);
      for (const r of rows) next.set(r.address, r);
      if (next.size <= Math.max(OVERLAY_MIN, base.size * OVERLAY_SHARE)) return overlay(base, baseByToken, next, view);
      const all = new Map(base);
      for (const [address, row] of next) all.set(address, row);
      return build(all, view);
    },
    page(token, page, limit) {
      const current = (baseByToken.get(token) ?? []).map((row) => changed.get(row.address) ?? row);
      const all = [...current, ...(addedByToken.get(token) ?? [])].sort(comparePools);
      const start = (page - 1) * limit;
      return toJson<PoolPage>({
        data: all.slice(start, start + limit).map((row) => toPool(row, view)),
        meta: { page, limit, totalItemsCount: all.length, pagesCount: Math.ceil(all.length / limit) },
      });
    },
  };
}
