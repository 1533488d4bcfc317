// The simulator's concentrated-liquidity math against Uniswap V3's: TickMath's √ratios at ticks
// (values the Solidity contract returns, from v3-core's tests), the tick of a √P at and around
// boundaries, SqrtPriceMath's overflow branch, and the swap loop crossing initialized ticks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  amount0Delta, amount1Delta, concentratedSwap, EMPTY_BOOK, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, modifyBook, nextSqrtFromInput,
  nextTickInWord, positionAmounts, Q96, sqrtAtTick, tickOf, type ConcentratedState,
} from '../../sim/math.ts';
import { TICKMATH_RECORDED as CONTRACT } from '../fixtures/tickMathRecorded.ts';

/** √(1.0001^t)·2^96 to ~70 digits, independently: 1.0001^t in 2^-512 fixed point by square-and-multiply, then an integer root. */
function reference(t: number): number {
  const ONE = 1n << 512n;
  let r = ONE;
  let sq = (10001n * ONE) / 10000n;
  for (let n = Math.abs(t); n > 0; n >>= 1) {
    if (n & 1) r = (r * sq) >> 512n;
    sq = (sq * sq) >> 512n;
  }
  const p = t < 0 ? (ONE * ONE) / r : r; // price in 2^-512
  const shift = p.toString(2).length - 60;
  return Math.sqrt(Number(p >> BigInt(shift)) * 2 ** (shift - 512)) * 2 ** 96;
}

test('sqrtAtTick is TickMath.getSqrtRatioAtTick to the last unit (±887,272 included) and within 1e-12 (or 2 units) of √1.0001^t', () => {
  assert.equal(sqrtAtTick(MIN_TICK), MIN_SQRT_RATIO);
  assert.equal(sqrtAtTick(MAX_TICK), MAX_SQRT_RATIO);
  for (const [tick, want] of CONTRACT) assert.equal(sqrtAtTick(tick), want, `tick ${tick}`);
  for (const t of [-887272, -400001, -12345, -1, 1, 7, 12345, 400001, 887272]) {
    const got = Number(sqrtAtTick(t));
    assert.ok(Math.abs(got - reference(t)) <= Math.max(2, reference(t) * 1e-12), `tick ${t}: ${got} vs ${reference(t)}`);
  }
  assert.throws(() => sqrtAtTick(MAX_TICK + 1));
});

test('tickOf is TickMath.getTickAtSqrtRatio: the greatest tick whose √ratio is ≤ √P, exact at boundaries', () => {
  assert.equal(tickOf(MIN_SQRT_RATIO), MIN_TICK);
  assert.equal(tickOf(4295343490n), MIN_TICK + 1);
  assert.equal(tickOf(1461373636630004318706518188784493106690254656249n), MAX_TICK - 1);
  assert.equal(tickOf(MAX_SQRT_RATIO - 1n), MAX_TICK - 1);
  assert.throws(() => tickOf(MAX_SQRT_RATIO));
  assert.throws(() => tickOf(MIN_SQRT_RATIO - 1n));
  for (const t of [-887271, -500000, -69082, -60, -1, 0, 1, 59, 60, 69081, 500000, 887271]) {
    assert.equal(tickOf(sqrtAtTick(t)), t, `at tick ${t}`);
    assert.equal(tickOf(sqrtAtTick(t) - 1n), t - 1, `just below tick ${t}`);
    assert.equal(tickOf(sqrtAtTick(t) + 1n), t, `just above tick ${t}`);
    if (t < 887271) assert.equal(tickOf(sqrtAtTick(t + 1) - 1n), t, `just below tick ${t + 1}`);
  }
});

test('SqrtPriceMath: rounding directions, and the other formula when amount·√P overflows 256 bits', () => {
  const L = 10n ** 18n;
  const p = Q96;
  // Δx = L·(√B−√A)/(√A·√B): up rounds up, down rounds down, and they differ by at most 1.
  const up = amount0Delta(p, sqrtAtTick(100), L, true);
  const down = amount0Delta(p, sqrtAtTick(100), L, false);
  assert.ok(up - down === 1n || up === down);
  assert.equal(amount1Delta(p, p + Q96 / 3n, 3n, false), 0n);
  assert.equal(amount1Delta(p, p + Q96 / 3n, 3n, true), 1n);
  // The precise formula: ⌈L·2^96·√P / (L·2^96 + Δx·√P)⌉.
  const dx = 10n ** 15n;
  assert.equal(nextSqrtFromInput(p, L, dx, true), ((L << 96n) * p + (L << 96n) + dx * p - 1n) / ((L << 96n) + dx * p));
  // amount·√P ≥ 2^256: ⌈L·2^96 / (L·2^96/√P + Δx)⌉ (v3-core's test: 2^160 at √P of 1, L 1 → 1).
  assert.equal(nextSqrtFromInput(Q96, 1n, 1n << 160n, true), 1n);
  assert.equal(nextSqrtFromInput(Q96, 1n, 1n << 150n, false), Q96 + (1n << 246n));
});

test('the tick bitmap search stops at initialized ticks and at the edge of a 256-spacing word', () => {
  let book = modifyBook(EMPTY_BOOK, -600, 600, 5n);
  book = modifyBook(book, -887220, 887220, 1n);
  assert.deepEqual(book.ticks, [-887220, -600, 600, 887220]);
  // Tick 0 is the first of word 0 (compressed 0…255): going down the search ends at its edge.
  assert.deepEqual(nextTickInWord(book, 0, 60, true), { next: 0, initialized: false, index: -1 });
  assert.deepEqual(nextTickInWord(book, -1, 60, true), { next: -600, initialized: true, index: 1 });
  assert.deepEqual(nextTickInWord(book, 0, 60, false), { next: 600, initialized: true, index: 2 });
  assert.deepEqual(nextTickInWord(book, 600, 60, false), { next: 255 * 60, initialized: false, index: -1 });
  assert.deepEqual(nextTickInWord(book, -601, 60, true), { next: -256 * 60, initialized: false, index: -1 });
  assert.deepEqual(nextTickInWord(book, -600, 60, true), { next: -600, initialized: true, index: 1 });
  // Gross 0 clears the tick; a position's liquidity may not go below 0.
  const cleared = modifyBook(book, -600, 600, -5n);
  assert.deepEqual(cleared.ticks, [-887220, 887220]);
  assert.throws(() => modifyBook(book, -600, 600, -6n));
});

test('a swap crosses initialized ticks: the active liquidity changes by liquidityNet, the tick follows Uniswap\'s boundary rule', () => {
  const base = 10n ** 20n;
  const narrow = 4n * 10n ** 20n;
  let book = modifyBook(EMPTY_BOOK, -887220, 887220, base);
  book = modifyBook(book, -60, 60, narrow);
  const start: ConcentratedState = { a: Q96, b: base + narrow, tick: 0, book };
  // Selling token0 down through tick −60: below it only the base is active.
  const big = concentratedSwap(start, true, 10n ** 19n, 3000, 60, false)!;
  assert.equal(big.crossed, 1);
  assert.equal(big.state.b, base);
  assert.ok(big.state.a < sqrtAtTick(-60));
  assert.equal(big.state.tick, tickOf(big.state.a));
  // A small one stays inside: no crossing, the liquidity unchanged, √P rounded up against the trader.
  const small = concentratedSwap(start, true, 10n ** 15n, 3000, 60, false)!;
  assert.equal(small.crossed, 0);
  assert.equal(small.state.b, base + narrow);
  // Exactly the input that reaches tick −60 (its amount plus the fee): the tick is −61, √P the tick's.
  const toEdge = amount0Delta(sqrtAtTick(-60), Q96, base + narrow, true);
  const withFee = toEdge + (toEdge * 3000n + 997_000n - 1n) / 997_000n;
  const edge = concentratedSwap(start, true, withFee, 3000, 60, false)!;
  assert.equal(edge.state.a, sqrtAtTick(-60));
  assert.equal(edge.state.tick, -61);
  assert.equal(edge.state.b, base, 'the tick reached is crossed');
  // Going back up from there crosses −60 again at once: the narrow position is active again.
  const back = concentratedSwap(edge.state, false, 10n ** 12n, 3000, 60, false)!;
  assert.equal(back.state.b, base + narrow);
  assert.ok(back.state.tick >= -60);
  // Out of range on both sides: a mint above the price needs token0 only and leaves the liquidity.
  const above = positionAmounts(start, 120, 240, 10n ** 18n);
  assert.equal(above.active, false);
  assert.equal(above.amount1, 0n);
  assert.ok(above.amount0 > 0n);
  const below = positionAmounts(start, -240, -120, 10n ** 18n);
  assert.deepEqual([below.active, below.amount0 === 0n, below.amount1 > 0n], [false, true, true]);
  // Amounts out: the sum of the steps' (rounded down), less than the input at price ~1.
  assert.ok(big.amountOut < 10n ** 19n && big.amountOut > 9n * 10n ** 18n);
});
