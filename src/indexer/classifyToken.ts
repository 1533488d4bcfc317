// Valuation figures of a token (spec: TokenInfo.fdv, Token.last24hVariation).
import { SCALE, pow10 } from './math/fixed.ts';

/** Fully diluted valuation, scaled by 10^36. */
export function fdvOf(price: bigint, totalSupply: bigint, decimals: number): bigint {
  return (price * totalSupply) / pow10(decimals);
}

/** Percent change from `past` to `current` (both scaled), scaled; null when `past` is zero. */
export function variationOf(current: bigint, past: bigint): bigint | null {
  if (past === 0n) return null;
  return ((current - past) * 100n * SCALE) / past;
}
