// The limiter's cost from alternated off/on runs: the schedule, combining a side's runs and the ratio.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineRuns, limiterCost, limiterEnv, limiterSchedule } from '../../bench/lib/limiter.ts';
import type { LoadResult } from '../../bench/lib/load.ts';

const run = (rps: number, p50Ms = 5, p99Ms = 20): LoadResult => ({
  requests: rps * 10, rps, p50Ms, p99Ms, maxMs: p99Ms + 1, non2xx: 0, errors: 0, timeouts: 0, bytesPerResponse: 1000, statuses: {},
});

test('off and on alternate so a linear drift hits both sides alike', () => {
  assert.deepEqual(limiterSchedule(1), ['off', 'on']);
  assert.deepEqual(limiterSchedule(2), ['off', 'on', 'on', 'off']);
  assert.deepEqual(limiterSchedule(3), ['off', 'on', 'on', 'off', 'off', 'on']);
  assert.equal(limiterEnv.off.RATE_LIMIT_PER_SECOND, '0');
  assert.equal(limiterEnv.off.RATE_LIMIT_PER_MINUTE, '0');
  assert.ok(Number(limiterEnv.on.RATE_LIMIT_PER_SECOND) >= 1e6, 'limits that never trigger');
});

test("a side's runs combine into mean req/s, median p50, worst p99", () => {
  const c = combineRuns([run(1000, 4, 30), run(2000, 6, 10), run(3000, 5, 20)]);
  assert.equal(c.rps, 2000);
  assert.equal(c.p50Ms, 5);
  assert.equal(c.p99Ms, 30);
  assert.equal(c.requests, 60000);
  assert.throws(() => combineRuns([]));
});

test('the cost is on ÷ off over all runs, with each pair shown', () => {
  // linear drift of +100 req/s per run; the limiter costs 10 %
  const drift = (i: number) => 1000 + 100 * i;
  const cost = limiterCost('pglite', [
    { side: 'off', result: run(drift(0)) },
    { side: 'on', result: run(drift(1) * 0.9) },
    { side: 'on', result: run(drift(2) * 0.9) },
    { side: 'off', result: run(drift(3)) },
  ]);
  assert.equal(cost.off.rps, 1150);
  assert.equal(cost.rpsRatio, 0.9, 'ABBA cancels the linear drift');
  assert.deepEqual(cost.pairRatios, [0.99, 0.831]);
  assert.deepEqual(cost.runs.map((r) => r.side), ['off', 'on', 'on', 'off']);
});
