// Price, depth and liquidity of a pool from its state, by its family's exact math. Each figure is
// computed once per pool state: a pool's `state` object is replaced whenever the pool changes (and
// its `liquidityNet` map when its positions are reloaded), so a figure is remembered for the pair
// of objects it was computed from. A stable curve's depth is a bisection and a concentrated pool's
// a walk over its ticks; the indexer asks for them for every pool of a quote token in every block.
import type { StoredPool } from '../../db/indexer/index.ts';
import { familyOf } from '../families/index.ts';
import { SCALE, pow10 } from '../math/fixed.ts';

type Figures = { net: StoredPool['liquidityNet']; values: Map<string, bigint | null> };
const figuresByState = new WeakMap<StoredPool['state'], Figures>();

function remembered(pool: StoredPool, key: string, compute: () => bigint | null): bigint | null {
  let figures = figuresByState.get(pool.state);
  if (!figures || figures.net !== pool.liquidityNet) {
    figures = { net: pool.liquidityNet, values: new Map() };
    figuresByState.set(pool.state, figures);
  }
  let value = figures.values.get(key);
  if (value === undefined) {
    value = compute();
    figures.values.set(key, value);
  }
  return value;
}

const decimalsOf = (pool: StoredPool, token: string, tokenDecimals: number, otherDecimals: number): [number, number] =>
  pool.token0 === token ? [tokenDecimals, otherDecimals] : [otherDecimals, tokenDecimals];

/** Whole `quote` units per whole `token`, scaled by 10^36; null when the pool cannot say. */
export function poolPrice(pool: StoredPool, token: string, tokenDecimals: number, quoteDecimals: number): bigint | null {
  return remembered(pool, `p${token}${tokenDecimals},${quoteDecimals}`, () => computePoolPrice(pool, token, tokenDecimals, quoteDecimals));
}

function computePoolPrice(pool: StoredPool, token: string, tokenDecimals: number, quoteDecimals: number): bigint | null {
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
  return remembered(pool, `d${quote}${quoteDecimals},${tokenDecimals}`, () => computeQuoteDepth(pool, quote, quoteDecimals, tokenDecimals));
}

function computeQuoteDepth(pool: StoredPool, quote: string, quoteDecimals: number, tokenDecimals: number): bigint | null {
  const [d0, d1] = decimalsOf(pool, quote, quoteDecimals, tokenDecimals);
  const band = familyOf(pool.kind).bandDepth(pool, d0, d1);
  if (!band) return null;
  return pool.token0 === quote ? band.amount0 : band.amount1;
}

/** Base units of `quote` the pool really holds (concentrated: what the positions hold at the current price). */
export function quoteBalance(pool: StoredPool, quote: string): bigint | null {
  return remembered(pool, `b${quote}`, () => computeQuoteBalance(pool, quote));
}

function computeQuoteBalance(pool: StoredPool, quote: string): bigint | null {
  const balances = familyOf(pool.kind).balances(pool);
  if (!balances) return null;
  return pool.token0 === quote ? balances.amount0 : balances.amount1;
}
