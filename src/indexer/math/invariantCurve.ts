// Pools priced by an invariant f(x, y) = k on reserves in one common unit: the marginal price and
// the reserves where it has moved by a factor, found by bisection along the curve (the price of
// token0 falls as x grows).
import { BAND, type Ratio } from './ratio.ts';

export type InvariantCurve = {
  /** y on the curve through the current reserves, for this x. */
  yAt(x: bigint): bigint;
  /** Marginal price of x in y at (x, y): −dy/dx. */
  priceAt(x: bigint, y: bigint): Ratio;
};

const PRECISION_BITS = 48n;

/** The x where the price is num/den (bisection to 2^-48 relative in x); clamped to [lo, hi]. */
function xAtPrice(curve: InvariantCurve, target: Ratio, lo: bigint, hi: bigint): bigint {
  // price(x) > target ⇔ x is below the answer
  const above = (x: bigint) => {
    const p = curve.priceAt(x, curve.yAt(x));
    return p.num * target.den > target.num * p.den;
  };
  if (!above(lo)) return lo;
  if (above(hi)) return hi;
  while (hi - lo > 1n && (hi - lo) << PRECISION_BITS > hi) {
    const mid = (lo + hi) >> 1n;
    if (above(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Amounts of x and y the pool trades between spot/1.02 and spot×1.02. */
export function curveBandDepth(curve: InvariantCurve, x: bigint, y: bigint): { dx: bigint; dy: bigint } {
  if (x <= 0n || y <= 0n) return { dx: 0n, dy: 0n };
  const spot = curve.priceAt(x, y);
  const xUp = xAtPrice(curve, { num: spot.num * BAND.num, den: spot.den * BAND.den }, 1n, x);
  const xDown = xAtPrice(curve, { num: spot.num * BAND.den, den: spot.den * BAND.num }, x, x << 64n);
  return { dx: xDown - xUp, dy: curve.yAt(xUp) - curve.yAt(xDown) };
}
