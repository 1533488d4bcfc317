// Exact pool math of the simulated pools, in bigint, written for the simulator alone (the indexer's
// math is not imported: the truth it checks must be independent). Concentrated pools hold positions
// on finite tick ranges; a swap runs the pools' loop over their initialized ticks.

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

// Uniswap V3's TickMath, SqrtPriceMath and SwapMath (exact input), and the tick bitmap's search,
// in bigint. Every rounding is the contracts' (mulDiv floors, mulDivRoundingUp, divRoundingUp), and
// where a contract chooses a formula by whether a 256-bit product overflows, so does this code.

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
export const MIN_SQRT_RATIO = 4295128739n;
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;
const U256 = 1n << 256n;
const MAX_U256 = U256 - 1n;

/** TickMath's factors: 2^128 / √1.0001^(2^i) for bit i of |tick| (bit 0 starts the product). */
const TICK_FACTORS = [
  0xfffcb933bd6fad37aa2d162d1a594001n, 0xfff97272373d413259a46990580e213an, 0xfff2e50f5f656932ef12357cf3c7fdccn, 0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n, 0xff973b41fa98c081472e6896dfb254c0n, 0xff2ea16466c96a3843ec78b326b52861n, 0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n, 0xf987a7253ac413176f2b074cf7815e54n, 0xf3392b0822b70005940c7a398e4b70f3n, 0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n, 0xa9f746462d870fdf8a65dc1f90e061e5n, 0x70d869a156d2a1b890bb3df62baf32f7n, 0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n, 0x5d6af8dedb81196699c329225ee604n, 0x2216e584f5fa1ea926041bedfe98n, 0x48a170391f7dc42444e8fa2n,
];
const atTick = new Map<number, bigint>();

/** TickMath.getSqrtRatioAtTick: √(1.0001^tick)·2^96, the contract's value to the last unit (cached). */
export function sqrtAtTick(tick: number): bigint {
  const hit = atTick.get(tick);
  if (hit !== undefined) return hit;
  const abs = Math.abs(tick);
  if (!Number.isInteger(tick) || abs > MAX_TICK) throw new Error(`tick ${tick} out of range`);
  let ratio = abs & 1 ? TICK_FACTORS[0]! : 1n << 128n;
  for (let i = 1; i < 20; i++) if (abs & (1 << i)) ratio = (ratio * TICK_FACTORS[i]!) >> 128n;
  if (tick > 0) ratio = MAX_U256 / ratio;
  const value = (ratio >> 32n) + (ratio & 0xffffffffn ? 1n : 0n);
  if (atTick.size > 1_000_000) atTick.clear();
  atTick.set(tick, value);
  return value;
}

/**
 * TickMath.getTickAtSqrtRatio: the greatest tick whose √ratio is ≤ √P. The float logarithm gives it
 * unless √P is within 1e-7 of a tick boundary (its error is below 1e-9 ticks); there the neighbours'
 * exact √ratios decide.
 */
export function tickOf(sqrtP: bigint): number {
  if (sqrtP < MIN_SQRT_RATIO || sqrtP >= MAX_SQRT_RATIO) throw new Error(`√P ${sqrtP} out of range`);
  const bits = bitLength(sqrtP);
  const shift = Math.max(0, bits - 60);
  const ratio = Number(sqrtP >> BigInt(shift)) * 2 ** (shift - 96);
  const x = (2 * Math.log(ratio)) / Math.log(1.0001);
  let tick = Math.floor(x);
  if (x - tick > 1e-7 && x - tick < 1 - 1e-7) return tick;
  tick = Math.min(Math.max(tick, MIN_TICK), MAX_TICK - 1);
  while (tick > MIN_TICK && sqrtAtTick(tick) > sqrtP) tick--;
  while (tick < MAX_TICK - 1 && sqrtAtTick(tick + 1) <= sqrtP) tick++;
  return tick;
}

const divUp = (a: bigint, b: bigint) => (a % b === 0n ? a / b : a / b + 1n);

/** SqrtPriceMath.getAmount0Delta (sqrtA < sqrtB): L·(√B − √A)/(√B·√A), rounded as the contract rounds (in two divisions). */
export function amount0Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  if (sqrtA > sqrtB) [sqrtA, sqrtB] = [sqrtB, sqrtA];
  const num = (liquidity << 96n) * (sqrtB - sqrtA);
  return roundUp ? divUp(divUp(num, sqrtB), sqrtA) : num / sqrtB / sqrtA;
}

/** SqrtPriceMath.getAmount1Delta: L·(√B − √A)/2^96. */
export function amount1Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const num = liquidity * (sqrtA > sqrtB ? sqrtA - sqrtB : sqrtB - sqrtA);
  return roundUp ? divUp(num, Q96) : num / Q96;
}

/** SqrtPriceMath.getNextSqrtPriceFromInput (amountIn > 0, L > 0). */
export function nextSqrtFromInput(sqrtP: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  if (amountIn === 0n) return sqrtP;
  if (!zeroForOne) return sqrtP + (amountIn << 96n) / liquidity; // floor either way the contract computes it
  const numerator1 = liquidity << 96n;
  const product = amountIn * sqrtP;
  // The contract's precise formula when amount·√P and its sum with L·2^96 fit in 256 bits, else the other.
  if (product < U256 && numerator1 + product < U256) return divUp(numerator1 * sqrtP, numerator1 + product);
  return divUp(numerator1, numerator1 / sqrtP + amountIn);
}

/**
 * SwapMath.computeSwapStep for an exact input: the √P reached, the input consumed with its fee, and
 * the output (V3, PancakeSwap V3 and Algebra compute alike). They differ in one corner: when the input
 * less the fee falls short of the target but its √P rounds onto the target, V3 charges the target's
 * amount and fee, V4 (`v4`) the whole input.
 */
export function swapStep(sqrtP: bigint, target: bigint, liquidity: bigint, remaining: bigint, feePpm: bigint, v4: boolean): { sqrtP: bigint; consumed: bigint; amountOut: bigint } {
  const zeroForOne = sqrtP >= target;
  const lessFee = (remaining * (FEE_DEN - feePpm)) / FEE_DEN;
  const toTarget = zeroForOne ? amount0Delta(target, sqrtP, liquidity, true) : amount1Delta(sqrtP, target, liquidity, true);
  const next = lessFee >= toTarget ? target : nextSqrtFromInput(sqrtP, liquidity, lessFee, zeroForOne);
  const amountOut = zeroForOne ? amount1Delta(next, sqrtP, liquidity, false) : amount0Delta(sqrtP, next, liquidity, false);
  // The target not reached: the rest of the input is the fee (the whole input consumed).
  if (next !== target || (v4 && lessFee < toTarget)) return { sqrtP: next, consumed: remaining, amountOut };
  return { sqrtP: next, consumed: toTarget + divUp(toTarget * feePpm, FEE_DEN - feePpm), amountOut };
}

/** A pool's initialized ticks (ascending, with their net and gross liquidity) and its positions. Never mutated. */
export type TickBook = {
  readonly ticks: readonly number[];
  readonly net: readonly bigint[];
  readonly gross: readonly bigint[];
  readonly positions: readonly Position[];
};
export type Position = { readonly lower: number; readonly upper: number; readonly liquidity: bigint };
export const EMPTY_BOOK: TickBook = { ticks: [], net: [], gross: [], positions: [] };

/** The first index whose tick is ≥ `tick`. */
function lowerBound(ticks: readonly number[], tick: number): number {
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ticks[mid]! < tick) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * TickBitmap.nextInitializedTickWithinOneWord: the next initialized tick at or below `tick` (lte) or
 * above it, searched within the 256-tick-spacing word the search starts in; the word's edge
 * (uninitialized) when the word has none.
 */
export function nextTickInWord(book: TickBook, tick: number, spacing: number, lte: boolean): { next: number; initialized: boolean; index: number } {
  const compressed = Math.floor(tick / spacing);
  if (lte) {
    const wordStart = Math.floor(compressed / 256) * 256;
    const i = lowerBound(book.ticks, compressed * spacing + 1) - 1;
    if (i >= 0 && Math.floor(book.ticks[i]! / spacing) >= wordStart) return { next: book.ticks[i]!, initialized: true, index: i };
    return { next: wordStart * spacing, initialized: false, index: -1 };
  }
  const c = compressed + 1;
  const wordEnd = Math.floor(c / 256) * 256 + 255;
  const i = lowerBound(book.ticks, c * spacing);
  if (i < book.ticks.length && Math.floor(book.ticks[i]! / spacing) <= wordEnd) return { next: book.ticks[i]!, initialized: true, index: i };
  return { next: wordEnd * spacing, initialized: false, index: -1 };
}

export type ConcentratedState = { a: bigint; b: bigint; tick: number; book: TickBook };

/**
 * A swap of an exact input as the pools' swap loop runs it (no price limit but the routers'
 * MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO − 1): step to the next initialized tick (or the word's edge),
 * cross it (active liquidity += liquidityNet, negated going down), go on until the input is spent.
 * The tick after the swap: at a tick reached exactly, `next − 1` going down and `next` going up;
 * otherwise the tick of the final √P. Null when the input is not all spent before the limit (the
 * router's swap would revert), or in V3's rounding corner of `swapStep` where it is overspent.
 */
export function concentratedSwap(s: ConcentratedState, zeroForOne: boolean, amountIn: bigint, feePpm: number, spacing: number, v4: boolean): { state: ConcentratedState; amountOut: bigint; crossed: number } | null {
  const fee = BigInt(feePpm);
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  let { a: sqrtP, b: liquidity, tick } = s;
  let remaining = amountIn;
  let amountOut = 0n;
  let crossed = 0;
  while (remaining !== 0n && sqrtP !== limit) {
    const start = sqrtP;
    const step = nextTickInWord(s.book, tick, spacing, zeroForOne);
    const next = Math.min(Math.max(step.next, MIN_TICK), MAX_TICK);
    const sqrtNext = sqrtAtTick(next);
    const target = (zeroForOne ? sqrtNext < limit : sqrtNext > limit) ? limit : sqrtNext;
    const r = swapStep(sqrtP, target, liquidity, remaining, fee, v4);
    sqrtP = r.sqrtP;
    remaining -= r.consumed;
    if (remaining < 0n) return null; // V3's corner above overspent the input: the contract would go on as an exact output
    amountOut += r.amountOut;
    if (sqrtP === sqrtNext) {
      if (step.initialized) {
        const net = s.book.net[step.index]!;
        liquidity += zeroForOne ? -net : net;
        crossed++;
      }
      tick = zeroForOne ? next - 1 : next;
    } else if (sqrtP !== start) tick = tickOf(sqrtP);
  }
  if (remaining !== 0n) return null;
  return { state: { a: sqrtP, b: liquidity, tick, book: s.book }, amountOut, crossed };
}

/** A position's change of ±ΔL on [lower, upper): the ticks' net and gross liquidity, a tick cleared when its gross reaches 0. */
export function modifyBook(book: TickBook, lower: number, upper: number, delta: bigint): TickBook {
  const ticks = [...book.ticks];
  const net = [...book.net];
  const gross = [...book.gross];
  for (const [tick, netDelta] of [[lower, delta], [upper, -delta]] as const) {
    let i = lowerBound(ticks, tick);
    if (ticks[i] !== tick) {
      ticks.splice(i, 0, tick);
      net.splice(i, 0, 0n);
      gross.splice(i, 0, 0n);
    }
    net[i] = net[i]! + netDelta;
    gross[i] = gross[i]! + delta;
    if (gross[i]! < 0n) throw new Error(`tick ${tick}: gross liquidity below 0`);
    if (gross[i] === 0n) {
      ticks.splice(i, 1);
      net.splice(i, 1);
      gross.splice(i, 1);
    }
  }
  const positions = book.positions.filter((p) => p.lower !== lower || p.upper !== upper);
  const had = book.positions.find((p) => p.lower === lower && p.upper === upper)?.liquidity ?? 0n;
  if (had + delta < 0n) throw new Error(`position [${lower}, ${upper}) holds ${had}, changed by ${delta}`);
  if (had + delta > 0n) positions.push({ lower, upper, liquidity: had + delta });
  return { ticks, net, gross, positions };
}

/**
 * The tokens of a position change of ±ΔL (UniswapV3Pool._modifyPosition): below the range token0
 * only, above it token1 only, within it both from √P, rounded up for a deposit and down for a
 * withdrawal; `active` says whether the pool's liquidity changes (tickLower ≤ tick < tickUpper).
 */
export function positionAmounts(s: ConcentratedState, lower: number, upper: number, delta: bigint): { amount0: bigint; amount1: bigint; active: boolean } {
  const up = delta > 0n;
  const size = up ? delta : -delta;
  const [sqrtL, sqrtU] = [sqrtAtTick(lower), sqrtAtTick(upper)];
  if (s.tick < lower) return { amount0: amount0Delta(sqrtL, sqrtU, size, up), amount1: 0n, active: false };
  if (s.tick < upper) return { amount0: amount0Delta(s.a, sqrtU, size, up), amount1: amount1Delta(sqrtL, s.a, size, up), active: true };
  return { amount0: 0n, amount1: amount1Delta(sqrtL, sqrtU, size, up), active: false };
}

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
