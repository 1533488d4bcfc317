// Price and depth of a pool from its state: V2 reserves, V3 sqrtPriceX96 and active liquidity.
import type { StoredPool } from '../db/indexer/index.ts';
import { SCALE, pow10 } from './fixed.ts';

const Q96 = 2n ** 96n;
const Q192 = 2n ** 192n;

/** Whole `quote` units per whole `token`, scaled by 10^36; null when the pool cannot say. */
export function poolPrice(pool: StoredPool, token: string, tokenDecimals: number, quoteDecimals: number): bigint | null {
  const isToken0 = pool.token0 === token;
  const { reserve0, reserve1, sqrtPriceX96 } = pool.state;
  if (pool.kind === 'v2') {
    const rt = isToken0 ? reserve0 : reserve1;
    const rq = isToken0 ? reserve1 : reserve0;
    if (!rt || rq === null) return null;
    return (rq * pow10(tokenDecimals) * SCALE) / (rt * pow10(quoteDecimals));
  }
  if (!sqrtPriceX96) return null;
  const p2 = sqrtPriceX96 * sqrtPriceX96; // token1 base units per token0 base unit, × 2^192
  return isToken0
    ? (p2 * pow10(tokenDecimals) * SCALE) / (Q192 * pow10(quoteDecimals))
    : (Q192 * pow10(tokenDecimals) * SCALE) / (p2 * pow10(quoteDecimals));
}

/** Base units of `quote` the pool holds: V2 reserve, V3 virtual reserve of the active liquidity. */
export function quoteDepth(pool: StoredPool, quote: string): bigint | null {
  const isToken0 = pool.token0 === quote;
  const { reserve0, reserve1, sqrtPriceX96, liquidity } = pool.state;
  if (pool.kind === 'v2') return isToken0 ? reserve0 : reserve1;
  if (!sqrtPriceX96 || liquidity === null) return null;
  return isToken0 ? (liquidity * Q96) / sqrtPriceX96 : (liquidity * sqrtPriceX96) / Q96;
}
