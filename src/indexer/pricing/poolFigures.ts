// A pool's USD liquidity and spot price as the API shows them, from indexer state: what the pool
// really holds (families' balances: concentrated pools only what their positions hold at the
// current price) valued at each token's current price, and token1 per token0 by the family's math.
import type { StoredPool } from '../../db/indexer/index.ts';
import type { IndexerState } from '../state/IndexerState.ts';
import { SCALE, pow10 } from '../math/fixed.ts';
import { poolPrice } from './poolQuotes.ts';
import { familyOf } from '../families/index.ts';
import { MAX_PRICED_DECIMALS } from './priceToken.ts';

export type PoolFigures = {
  /** USD scaled by 10^36; null unless both tokens are priced and the pool has a state. */
  liquidity(pool: StoredPool): bigint | null;
  /** Whole token1 per whole token0, scaled by 10^36; null while the pool has no price. */
  price(pool: StoredPool): bigint | null;
  /** A token's `info.liquidity`: the sum of its pools' non-null liquidity, scaled; null when none. */
  tokenLiquidity(token: string): bigint | null;
};

const pricedDecimals = (state: IndexerState, token: string): number | null => {
  const meta = state.tokens.get(token);
  return meta && meta.decimalsKnown && meta.decimals <= MAX_PRICED_DECIMALS ? meta.decimals : null;
};

/** Figures computed once per pool for one batch's state (concentrated balances walk the ticks). */
export function createPoolFigures(state: IndexerState): PoolFigures {
  const liquidity = new Map<string, bigint | null>();
  const tokenLiquidity = new Map<string, bigint | null>();
  const price = new Map<string, bigint | null>();
  const poolLiquidity = (pool: StoredPool): bigint | null => {
    if (liquidity.has(pool.address)) return liquidity.get(pool.address)!;
    const value = liquidityOf(state, pool);
    liquidity.set(pool.address, value);
    return value;
  };
  return {
    liquidity: poolLiquidity,
    tokenLiquidity(token) {
      if (tokenLiquidity.has(token)) return tokenLiquidity.get(token)!;
      let sum: bigint | null = null;
      for (const address of state.poolsByToken.get(token) ?? []) {
        const value = poolLiquidity(state.pools.get(address)!);
        if (value !== null) sum = (sum ?? 0n) + value;
      }
      tokenLiquidity.set(token, sum);
      return sum;
    },
    price(pool) {
      if (price.has(pool.address)) return price.get(pool.address)!;
      const d0 = pricedDecimals(state, pool.token0);
      const d1 = pricedDecimals(state, pool.token1);
      const value = d0 === null || d1 === null ? null : poolPrice(pool, pool.token0, d0, d1);
      price.set(pool.address, value);
      return value;
    },
  };
}

function liquidityOf(state: IndexerState, pool: StoredPool): bigint | null {
  const p0 = state.prices.get(pool.token0)?.price ?? null;
  const p1 = state.prices.get(pool.token1)?.price ?? null;
  const d0 = pricedDecimals(state, pool.token0);
  const d1 = pricedDecimals(state, pool.token1);
  if (p0 === null || p1 === null || d0 === null || d1 === null) return null;
  const balances = familyOf(pool.kind).balances(pool);
  if (!balances) return null;
  return (balances.amount0 * p0) / pow10(d0) + (balances.amount1 * p1) / pow10(d1);
}

/** USD value (scaled by 10^36) of `amount` base units of a token at `price` (scaled), given its decimals. */
export const valueOf = (amount: bigint, price: bigint, decimals: number): bigint => (amount * price) / pow10(decimals);

export { SCALE };
