// Depth within ±2 % of spot: concentrated liquidity counts only what its positions hold in the band
// (a tiny one-tick position is tiny, however large its virtual reserves), constant product trades
// 0.02/√1.02 of each reserve, and stable curves are walked along their invariant.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { concentratedBalances, concentratedBandDepth } from '../../../src/indexer/math/concentrated.ts';
import { curveBandDepth } from '../../../src/indexer/math/invariantCurve.ts';
import { curveD, curveStableCurve } from '../../../src/indexer/math/curveStable.ts';
import { solidlyStableCurve } from '../../../src/indexer/math/solidlyStable.ts';
import { sqrtPriceAtTick } from '../../../src/indexer/math/sqrtPriceAtTick.ts';
import { TICKMATH_RECORDED } from '../../fixtures/tickMathRecorded.ts';

const Q96 = 2n ** 96n;
const E18 = 10n ** 18n;
const near = (a: bigint, b: bigint, ppm: bigint) => (a > b ? a - b : b - a) * 1_000_000n <= (b < 0n ? -b : b) * ppm;

test('√price at a tick is √1.0001^tick', () => {
  for (const tick of [0, 1, -1, 60, -60, 46054, -46054, 200_000, -887_220, 887_220]) {
    const expected = Math.sqrt(1.0001 ** tick);
    const actual = Number(sqrtPriceAtTick(tick)) / Number(Q96);
    assert.ok(Math.abs(actual / expected - 1) < 1e-9, `tick ${tick}: ${actual} vs ${expected}`);
  }
});

test('concentrated depth: a one-tick position counts what it holds, not its virtual reserves', () => {
  const L = 10n ** 24n;
  const sqrtP = sqrtPriceAtTick(0) + 1n; // just inside [0, 1]
  const oneTick = new Map([[0, L], [1, -L]]);
  const band = concentratedBandDepth(sqrtP, L, oneTick);
  const virtual1 = (L * sqrtP) / Q96;
  // The whole range spans 0.01 % of price: the band holds about L·(√1.0001 − 1) of token1.
  assert.ok(band.amount1 < virtual1 / 10_000n, `${band.amount1} vs virtual ${virtual1}`);
  const held = concentratedBalances(sqrtP, L, oneTick);
  assert.ok(held.amount1 <= band.amount1 && held.amount0 <= band.amount0);
});

test('concentrated depth: full range equals an unbounded position, liquidity in range beyond 2 % is ignored', () => {
  const L = 10n ** 21n;
  const sqrtP = Q96 * 3n;
  const unbounded = concentratedBandDepth(sqrtP, L, new Map());
  const full = concentratedBandDepth(sqrtP, L, new Map([[-887_220, L], [887_220, -L]]));
  assert.deepEqual(full, unbounded);
  // L·√P·(√1.02 − 1/√1.02) of token1
  const expected1 = (L * 3n * 1_980_295n) / 100_000_000n;
  assert.ok(near(unbounded.amount1, expected1, 10n), `${unbounded.amount1} vs ${expected1}`);
  // a second position far above the band adds nothing to the band
  const far = new Map([[-887_220, L], [887_220, -L], [40_000, 5n * L], [40_060, -5n * L]]);
  assert.deepEqual(concentratedBandDepth(sqrtP, L, far), unbounded);
});

const table = [
  { name: 'Solidly stable x³y + xy³', curve: solidlyStableCurve },
  { name: 'Curve Ann = 2000', curve: (x: bigint, y: bigint) => curveStableCurve(x, y, 2000n) },
];
for (const { name, curve } of table) {
  test(`${name}: the curve keeps its reserves, the price falls along it, and the band is deeper than x·y's`, () => {
    const x = 1_000_000n * E18 * E18;
    const y = 1_150_000n * E18 * E18;
    const c = curve(x, y);
    assert.ok(near(c.yAt(x), y, 1n));
    const spot = c.priceAt(x, y);
    const { dx, dy } = curveBandDepth(c, x, y);
    assert.ok(dx > 0n && dy > 0n);
    const spotF = Number((spot.num * 10n ** 15n) / spot.den) / 1e15;
    const xs = [x / 2n, x, x * 2n];
    const ps = xs.map((v) => { const p = c.priceAt(v, c.yAt(v)); return Number((p.num * 10n ** 15n) / p.den) / 1e15; });
    assert.ok(ps[0]! > spotF && ps[2]! < spotF, 'the price falls as x grows');
    // constant product of the same reserves trades 0.02/√1.02 ≈ 1.98 % of x in the band; a stable curve far more
    assert.ok(dx > (x * 198n) / 10_000n, `${name}: ${dx} vs ${x}`);
  });
}

test('Curve D solves the invariant Ann(x + y) + D = Ann·D + D³/(4xy)', () => {
  const x = 3n * 10n ** 30n;
  const y = 5n * 10n ** 30n;
  const d = curveD(x, y, 2000n);
  const lhs = 2000n * (x + y) + d;
  const rhs = 2000n * d + (d * d * d) / (4n * x * y);
  assert.ok(near(lhs, rhs, 1n));
});

test('concentrated balances at a tick\'s exact √ratio: the pool\'s tick says whether the tick is crossed (reached going down: not)', () => {
  const base = 10n ** 24n;
  const narrow = 5n * 10n ** 24n;
  // A full-range base and a position on [600, 1200); the price sits exactly on tick 600's √ratio as
  // TickMath gives it (a unit above this √ratio: TickMath rounds up).
  const net = new Map([[-887_220, base], [600, narrow], [1200, -narrow], [887_220, -base]]);
  const sqrtP = sqrtPriceAtTick(600) + 1n;
  // Reached going down, the pool's tick is 599 and only the base is active; reached going up (or
  // by the floor rule) the tick is 600 and the narrow position is active too. Either way the
  // positions hold the same tokens: the narrow one only token0, all of it.
  const down = concentratedBalances(sqrtP, base, net, 599);
  const up = concentratedBalances(sqrtP, base + narrow, net, 600);
  assert.ok(near(down.amount0, up.amount0, 1n) && near(down.amount1, up.amount1, 1n), `${JSON.stringify([down, up], (_, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  const narrow0 = (narrow * Q96 * (sqrtPriceAtTick(1200) - sqrtP)) / (sqrtP * sqrtPriceAtTick(1200));
  const baseOnly = concentratedBalances(sqrtP, base, new Map([[-887_220, base], [887_220, -base]]), 599);
  assert.ok(near(down.amount0 - baseOnly.amount0, narrow0, 1n), 'the narrow position holds its token0 above the price');
  assert.ok(near(down.amount1, baseOnly.amount1, 1n), 'and no token1');
  // Without the tick (the rule by √ratio alone), tick 600 counts as crossed: right for tick 600, wrong for 599.
  assert.deepEqual(concentratedBalances(sqrtP, base + narrow, net), up);
  assert.ok(!near(concentratedBalances(sqrtP, base, net).amount0, up.amount0, 1000n), 'the √ratio rule misreads a tick reached going down');
  // The band depth the same way.
  const band = (tick: number, active: bigint) => concentratedBandDepth(sqrtP, active, net, tick);
  assert.ok(near(band(599, base).amount0, band(600, base + narrow).amount0, 1n));
});

test('√price at a tick is TickMath.getSqrtRatioAtTick to the last unit, so a position bound equals the pool\'s', () => {
  for (const [tick, recorded] of TICKMATH_RECORDED) assert.equal(sqrtPriceAtTick(tick), recorded, `tick ${tick}`);
  assert.throws(() => sqrtPriceAtTick(887_273), RangeError);
});

test('balances at a √price exactly on a tick boundary: the pool\'s tick decides which side the boundary\'s liquidity is on', () => {
  const L = 10n ** 24n;
  const net = new Map([[-60, L], [60, -L]]);
  const atZero = sqrtPriceAtTick(0); // exactly the boundary's √ratio (tick 0: crossed going up, not crossed coming down)
  const down = concentratedBalances(atZero, 0n, new Map([[0, L], [60, -L]]), -1); // reached going down: [0, 60] is above, inactive
  assert.equal(down.amount1, 0n, 'nothing below the price');
  assert.equal(down.amount0, (L * Q96 * (sqrtPriceAtTick(60) - atZero)) / (atZero * sqrtPriceAtTick(60)));
  const inside = concentratedBalances(atZero, L, net, 0);
  assert.equal(inside.amount1, (L * (atZero - sqrtPriceAtTick(-60))) / Q96);
});
