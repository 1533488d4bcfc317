// Exact non-negative rationals as bigint pairs, and the integer square root.
export type Ratio = { num: bigint; den: bigint };

export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('isqrt of a negative number');
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length + 1) >> 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

export const Q96 = 2n ** 96n;
export const Q192 = 2n ** 192n;

/** The ±2 % band: prices from spot/1.02 to spot×1.02. */
export const BAND = { num: 102n, den: 100n } as const;

/** Base units of each token of a pool: what it trades within a price band, or what it holds. */
export type BandDepth = { amount0: bigint; amount1: bigint };
