// SyncSwap stable pools: the 2-coin Curve invariant Ann(x + y) + D = Ann·D + D³/(4xy) on
// decimal-normalised reserves (homogeneous of degree 1: D scales with the reserves).
import type { InvariantCurve } from './invariantCurve.ts';
import { isqrt, type Ratio } from './ratio.ts';

/** D for reserves (x, y): Newton's method on D³ + 4xy(Ann − 1)D − 4xy·Ann(x + y), from x + y (above the root). */
export function curveD(x: bigint, y: bigint, ann: bigint): bigint {
  if (x === 0n || y === 0n) return 0n;
  const p = 4n * x * y;
  let d = x + y;
  for (let i = 0; i < 255; i++) {
    const g = d * d * d + p * (ann - 1n) * d - p * ann * (x + y);
    const step = g / (3n * d * d + p * (ann - 1n));
    d -= step;
    if (step <= 1n) break;
  }
  return d;
}

/** Marginal price of x in y: (4·Ann·x²y² + D³y) / (4·Ann·x²y² + D³x). */
export function curvePrice(x: bigint, y: bigint, d: bigint, ann: bigint): Ratio {
  const a = 4n * ann * x * x * y * y;
  const d3 = d * d * d;
  return { num: a + d3 * y, den: a + d3 * x };
}

/** The curve of the current D: y for x solves Ann·y² + (Ann·x + D − Ann·D)·y − D³/(4x) = 0. */
export function curveStableCurve(x0: bigint, y0: bigint, ann: bigint): InvariantCurve {
  const d = curveD(x0, y0, ann);
  return {
    priceAt: (x, y) => curvePrice(x, y, d, ann),
    yAt(x) {
      // ×4x: 4x·Ann·y² + 4x·B·y − D³ = 0
      const a = 4n * x * ann;
      const b = 4n * x * (ann * x + d - ann * d);
      return (isqrt(b * b + 4n * a * d * d * d) - b) / (2n * a);
    },
  };
}
