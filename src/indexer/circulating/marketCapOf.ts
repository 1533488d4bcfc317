import { pow10 } from '../math/fixed.ts';

/** Market cap, scaled by 10^36: price (scaled) × circulating supply (base units) / 10^decimals; null without either. */
export function marketCapOf(price: bigint | null, circulatingSupply: bigint | null, decimals: number): bigint | null {
  if (price === null || circulatingSupply === null) return null;
  return (price * circulatingSupply) / pow10(decimals);
}
