// Solidly stable pairs (Thena, Lynex V1, Etherex legacy): x³y + xy³ = k on decimal-normalised reserves.
// The invariant is homogeneous, so reserves scaled to the common unit 10^(d0+d1) keep prices exact.
import type { InvariantCurve } from './invariantCurve.ts';
import type { Ratio } from './ratio.ts';

/** Marginal price of x in y: (3x²y + y³) / (x³ + 3xy²). */
export function solidlyStablePrice(x: bigint, y: bigint): Ratio {
  return { num: 3n * x * x * y + y * y * y, den: x * x * x + 3n * x * y * y };
}

/** The curve through (x, y); y for another x by Newton's method on x³y + xy³ − k. */
export function solidlyStableCurve(x0: bigint, y0: bigint): InvariantCurve {
  const k = x0 * x0 * x0 * y0 + x0 * y0 * y0 * y0;
  return {
    priceAt: solidlyStablePrice,
    yAt(x) {
      let y = y0 > 0n ? y0 : 1n;
      for (let i = 0; i < 255; i++) {
        const f = x * x * x * y + x * y * y * y - k;
        const step = f / (x * x * x + 3n * x * y * y);
        const next = y - step;
        if (next <= 0n) y = (y + 1n) / 2n;
        else y = next;
        if (step === 0n || step === 1n || step === -1n) break;
      }
      return y;
    },
  };
}
