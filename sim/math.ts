// Exact pool math of the simulated pools, in bigint, written for the simulator alone (the indexer's
// math is not imported: the truth it checks must be independent). Concentrated pools hold one
// full-range position, so every swap stays inside one tick range: √P moves by the closed-form
// single-range step of Uniswap V3's SwapMath, and no tick is ever crossed.

export const Q96 = 1n << 96n;
export const FEE_DEN = 1_000_000n;

export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new Error('isqrt of a negative number');
  if (n < 2n) return n;
  // Newton's method from a power of two above the root: decreases to the exact floor.
  let x = 1n << BigInt((n.toString(2).length >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** Constant product x·y = k after a fee in parts per million taken from the input. */
export function constantProductOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feePpm: number): bigint {
  const inWithFee = amountIn * (FEE_DEN - BigInt(feePpm));
  return (inWithFee * reserveOut) / (reserveIn * FEE_DEN + inWithFee);
}

/** Solidly stable x³y + xy³ = k on reserves scaled to 18 decimals; Newton's method for the new y, rounded for the pool. */
export function solidlyStableOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, decIn: number, decOut: number, feePpm: number): bigint {
  const sIn = pow10(18 - decIn);
  const sOut = pow10(18 - decOut);
  const x0 = reserveIn * sIn;
  const y0 = reserveOut * sOut;
  const k = x0 * x0 * x0 * y0 + x0 * y0 * y0 * y0;
  const x = x0 + ((amountIn * (FEE_DEN - BigInt(feePpm))) / FEE_DEN) * sIn;
  let y = y0;
  for (let i = 0; i < 255; i++) {
    const f = x * x * x * y + x * y * y * y - k;
    const step = f / (x * x * x + 3n * x * y * y);
    y = y - step > 0n ? y - step : y / 2n;
    if (step >= -1n && step <= 1n) break;
  }
  const out = (y0 - y) / sOut - 1n;
  return out > 0n ? out : 0n;
}

/** D of the 2-coin Curve invariant Ann(x + y) + D = Ann·D + D³/(4xy). */
export function curveD(x: bigint, y: bigint, ann: bigint): bigint {
  const p = 4n * x * y;
  let d = x + y;
  for (let i = 0; i < 255; i++) {
    const g = d * d * d + p * (ann - 1n) * d - p * ann * (x + y);
    const step = g / (3n * d * d + p * (ann - 1n));
    d -= step;
    if (step >= -1n && step <= 1n) break;
  }
  return d;
}

/** SyncSwap stable (the Curve invariant with Ann = 2000) on reserves scaled to 18 decimals. */
export function curveStableOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, decIn: number, decOut: number, feePpm: number, ann: bigint): bigint {
  const sIn = pow10(18 - decIn);
  const sOut = pow10(18 - decOut);
  const x0 = reserveIn * sIn;
  const y0 = reserveOut * sOut;
  const d = curveD(x0, y0, ann);
  const x = x0 + ((amountIn * (FEE_DEN - BigInt(feePpm))) / FEE_DEN) * sIn;
  // Ann·y² + (Ann·x + D − Ann·D)·y − D³/(4x) = 0, ×4x
  const a = 4n * x * ann;
  const b = 4n * x * (ann * x + d - ann * d);
  const y = (isqrt(b * b + 4n * a * d * d * d) - b) / (2n * a) + 1n;
  const out = (y0 - y) / sOut - 1n;
  return out > 0n ? out : 0n;
}

/**
 * One swap inside a single liquidity range (Uniswap V3 SwapMath, exact input): the new √P (rounded
 * against the trader) and the amount out (rounded down).
 */
export function concentratedSwap(sqrtP: bigint, liquidity: bigint, zeroForOne: boolean, amountIn: bigint, feePpm: number): { sqrtP: bigint; amountOut: bigint } {
  const net = (amountIn * (FEE_DEN - BigInt(feePpm))) / FEE_DEN;
  if (zeroForOne) {
    // √P' = L·√P·Q96 / (L·Q96 + Δx·√P), rounded up
    const num = liquidity * sqrtP * Q96;
    const den = liquidity * Q96 + net * sqrtP;
    const next = (num + den - 1n) / den;
    return { sqrtP: next, amountOut: (liquidity * (sqrtP - next)) / Q96 };
  }
  // √P' = √P + Δy·Q96 / L, rounded down; Δx = L·Q96·(√P' − √P) / (√P·√P')
  const next = sqrtP + (net * Q96) / liquidity;
  return { sqrtP: next, amountOut: (liquidity * Q96 * (next - sqrtP)) / (sqrtP * next) };
}

/** Token amounts of `liquidity` between √Pa and √Pb at √P (within the range); `up` rounds for a deposit. */
export function amountsOfLiquidity(liquidity: bigint, sqrtP: bigint, sqrtA: bigint, sqrtB: bigint, up: boolean): { amount0: bigint; amount1: bigint } {
  const div = (a: bigint, b: bigint) => (up ? (a + b - 1n) / b : a / b);
  return {
    amount0: div(liquidity * Q96 * (sqrtB - sqrtP), sqrtP * sqrtB),
    amount1: div(liquidity * (sqrtP - sqrtA), Q96),
  };
}

const ONE = 1n << 256n;
const BASE = (10001n * ONE) / 10000n;
const atTick = new Map<number, bigint>();

/** √(1.0001^tick)·2^96 by square-and-multiply in 2^-256 fixed point (the full-range bounds). */
export function sqrtAtTick(tick: number): bigint {
  const hit = atTick.get(tick);
  if (hit !== undefined) return hit;
  let result = ONE;
  let square = BASE;
  for (let n = Math.abs(tick); n > 0; n >>= 1) {
    if (n & 1) result = (result * square) >> 256n;
    square = (square * square) >> 256n;
  }
  const price = tick < 0 ? (ONE * ONE) / result : result;
  const value = isqrt(price >> 64n);
  atTick.set(tick, value);
  return value;
}

/** The tick of √P: ⌊log_1.0001(P)⌋ from the float logarithm (exact but within 1e-9 of a tick boundary). */
export function tickOf(sqrtP: bigint): number {
  const bits = bitLength(sqrtP);
  const shift = Math.max(0, bits - 60);
  const ratio = Number(sqrtP >> BigInt(shift)) * 2 ** (shift - 96);
  return Math.floor((2 * Math.log(ratio)) / Math.log(1.0001));
}

export const MAX_TICK = 887272;
export const fullRange = (spacing: number) => {
  const upper = Math.floor(MAX_TICK / spacing) * spacing;
  return { lower: -upper, upper };
};

// Prices in whole units of token1 per whole token0, as JavaScript numbers (relative error ~1e-15).

const toFloat = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

export function reservePrice(r0: bigint, r1: bigint, d0: number, d1: number): number {
  return toFloat(r1, d1) / toFloat(r0, d0);
}

export function solidlyStablePrice(r0: bigint, r1: bigint, d0: number, d1: number): number {
  const x = toFloat(r0, d0);
  const y = toFloat(r1, d1);
  return (3 * x * x * y + y * y * y) / (x * x * x + 3 * x * y * y);
}

export function curveStablePrice(r0: bigint, r1: bigint, d0: number, d1: number, ann: number): number {
  const x = toFloat(r0, d0);
  const y = toFloat(r1, d1);
  // D by Newton in floats, from x + y
  const p = 4 * x * y;
  let d = x + y;
  for (let i = 0; i < 100; i++) {
    const g = d * d * d + p * (ann - 1) * d - p * ann * (x + y);
    const step = g / (3 * d * d + p * (ann - 1));
    d -= step;
    if (Math.abs(step) <= d * 1e-16) break;
  }
  const a = 4 * ann * x * x * y * y;
  const d3 = d * d * d;
  return (a + d3 * y) / (a + d3 * x);
}

/** Bits of a positive bigint (within 4 of it from the hex length, then exact). */
function bitLength(v: bigint): number {
  let bits = v.toString(16).length * 4;
  while (bits > 0 && v >> BigInt(bits - 1) === 0n) bits--;
  return bits;
}

export function concentratedPrice(sqrtP: bigint, d0: number, d1: number): number {
  const bits = bitLength(sqrtP);
  const shift = Math.max(0, bits - 60);
  const ratio = Number(sqrtP >> BigInt(shift)) * 2 ** (shift - 96);
  return ratio * ratio * 10 ** (d0 - d1);
}
