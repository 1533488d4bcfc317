// Price, depth and liquidity of a pool from its state, by its family's exact math.
import type { StoredPool } from '../../db/indexer/index.ts';
import { familyOf } from '../families/index.ts';
import { SCALE, pow10 } from '../math/fixed.ts';

const decimalsOf = (pool: StoredPool, token: string, tokenDecimals: number, otherDecimals: number): [number, number] =>
  pool.token0 === token ? [tokenDecimals, otherDecimals] : [otherDecimals, tokenDecimals];

/** Whole `quote` units per whole `token`, scaled by 10^36; null when the pool cannot say. */
export function poolPrice(pool: StoredPool, token: string, tokenDecimals: number, quoteDecimals: number): bigint | null {
  const [d0, d1] = decimalsOf(pool, token, tokenDecimals, quoteDecimals);
  const p = familyOf(pool.kind).spotPrice(pool, d0, d1); // token1 base units per token0 base unit
  if (!p || p.num === 0n || p.den === 0n) return null;
  return pool.token0 === token
    ? (p.num * pow10(tokenDecimals) * SCALE) / (p.den * pow10(quoteDecimals))
    : (p.den * pow10(tokenDecimals) * SCALE) / (p.num * pow10(quoteDecimals));
}

/**
 * Base units of `quote` the pool trades while its price moves from spot/1.02 to spot×1.02: for
 * concentrated liquidity only what the positions hold in that band, never the virtual reserves.
 */
export function quoteDepth(pool: StoredPool, quote: string, quoteDecimals: number, tokenDecimals: number): bigint | null {
  const [d0, d1] = decimalsOf(pool, quote, quoteDecimals, tokenDecimals);
  const band = familyOf(pool.kind).bandDepth(pool, d0, d1);
  if (!band) return null;
  return pool.token0 === quote ? band.amount0 : band.amount1;
}

/** Base units of `quote` the pool really holds (concentrated: what the positions hold at the current price). */
export function quoteBalance(pool: StoredPool, quote: string): bigint | null {
  const balances = familyOf(pool.kind).balances(pool);
  if (!balances) return null;
  return pool.token0 === quote ? balances.amount0 : balances.amount1;
}
