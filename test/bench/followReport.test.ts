// The follow bench's lag summary and report from hand-made samples.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { feedRoundSteps, renderFollowBench, stepsLogged, summarizeLag, summarizeSteps, type FollowBenchResult } from '../../bench/index/renderFollow.ts';

test('lag summary: mean, nearest-rank median and p95, max, share at most 2 blocks behind', () => {
  const samples = [0, 1, 1, 2, 1, 0, 3, 1, 2, 9, 1, 1, 0, 1, 2, 1, 1, 0, 1, 4];
  const s = summarizeLag(samples);
  assert.equal(s.samples, 20);
  assert.equal(s.mean, 32 / 20);
  assert.equal(s.p50, 1);
  assert.equal(s.p95, 4);
  assert.equal(s.max, 9);
  assert.equal(s.atMostTwo, 17 / 20);
  assert.ok(Number.isNaN(summarizeLag([]).mean));
});

test('follow report: the lag, the request rate and the truth check', () => {
  const result: FollowBenchResult = {
    profile: 'linea-day', seed: 1, rps: 25, rttMs: 30, blockMs: 2000, blockTimestamp: false, label: null, bootstrapS: 600, followS: 600,
    blocksMined: 300, lag: summarizeLag([0, 1, 2, 1]), requests: 1500, throttled: 0, byMethod: { eth_getLogs: 900, eth_blockNumber: 600 },
    pausedHead: 43_500, indexerPeakRssMb: 700, at: '2026-01-01T00:00:00.000Z',
    check: { ok: true, pools: { checked: 5, missing: 0, stateMismatches: 0, priceMismatches: 0 }, tokens: { checked: 4, missing: 0, swapMismatches: 0 }, usdPrices: { checked: 3, mismatches: 0 }, examples: [] },
  };
  const md = renderFollowBench(result);
  assert.match(md, /\| Requests while following \| 1,500 \(2\.50 requests\/s; 0 refused with 429\) \|/);
  assert.match(md, /mean 1\.00, median 1, p95 2, max 2/);
  assert.match(md, /\| eth_getLogs \| 900 \| 1\.50 \|/);
  assert.match(md, /\*\*yes\*\*/);
});

test('follow steps: the batch\'s parts and the parts around it, averaged from the indexer\'s log lines', () => {
  const line = (time: number, ms: Record<string, number>, aroundMs?: Record<string, number>) =>
    JSON.stringify({ time, msg: 'indexed batch', fromBlock: 10, toBlock: 11, ms, ...(aroundMs ? { aroundMs } : {}) });
  const output = [
    line(1_000, { logs: 60, writeTokens: 100 }, { head: 30, storeChecks: 400 }),
    '{"time":1500,"msg":"contract checks stored"}',
    line(2_000, { logs: 80, writeTokens: 140 }, { head: 50, storeChecks: 0 }),
    line(9_000, { logs: 999 }), // after the window
  ].join('\n');
  const steps = summarizeSteps(output, 0, 5_000);
  assert.equal(steps.count, 2);
  assert.equal(steps.blocksMean, 2);
  assert.deepEqual(steps.partsMeanMs, { logs: 70, writeTokens: 120 });
  assert.deepEqual(steps.aroundMeanMs, { head: 40, storeChecks: 200 }, 'the parts around a batch are not summed into its time');
  assert.equal(steps.totalMeanMs, 190);
  const result = {
    profile: 'linea-day', seed: 1, rps: 25, rttMs: 30, blockMs: 2000, blockTimestamp: false, label: null, bootstrapS: 600, followS: 600,
    blocksMined: 300, lag: summarizeLag([0, 1]), steps, requests: 10, throttled: 0, byMethod: {}, pausedHead: 1, indexerPeakRssMb: 1, at: '2026-01-01T00:00:00.000Z',
    check: { ok: true, pools: { checked: 0, missing: 0, stateMismatches: 0, priceMismatches: 0 }, tokens: { checked: 0, missing: 0, swapMismatches: 0 }, usdPrices: { checked: 0, mismatches: 0 }, examples: [] },
  } satisfies FollowBenchResult;
  assert.match(renderFollowBench(result), /## Around the batch[^\n]*\n\n\| Part \| ms \|\n\| --- \| --- \|\n\| head \| 40 \|\n\| storeChecks \| 200 \|/);
});

test('feed-round steps: the steps whose blocks hold a multiple of the cadence, with the largest lag while each ran', () => {
  const line = (time: number, fromBlock: number, toBlock: number, ms: Record<string, number>, aroundMs?: Record<string, number>) =>
    JSON.stringify({ time, msg: 'indexed batch', fromBlock, toBlock, ms, aroundMs });
  const output = [
    line(11_000, 298, 299, { logs: 100 }), // 298-299: no round
    // the round at 300: its batch ran 11,000-14,000, its candles 14,000-15,000 (logged at the step's end)
    line(15_000, 300, 300, { logs: 100, writeCandles: 2900 }, { candles: 1000 }),
    line(18_000, 301, 302, { logs: 200 }),
    line(25_000, 449, 451, { logs: 500 }), // holds 450
  ].join('\n');
  const lagSeries: [number, number][] = [[1_200, 4], [1_500, 1], [3_000, 2], [6_000, 3], [8_000, 9], [14_000, 1], [16_000, 2]]; // ms since following began (10,000)
  const rounds = feedRoundSteps(stepsLogged(output, 10_000, 30_000), 150, lagSeries, 10_000);
  assert.deepEqual(rounds.map((r) => [r.fromBlock, r.blocks, r.totalMs, r.lagMax, r.candlesAfterMs]), [[300, 1, 3000, 4, 1000], [449, 3, 500, 2, undefined]]);
  assert.equal(rounds[0]!.at, 5_000);
  const result = {
    profile: 'linea-day', seed: 1, rps: 25, rttMs: 30, blockMs: 2000, blockTimestamp: false, label: null, bootstrapS: 600, followS: 600,
    blocksMined: 300, lag: summarizeLag([0, 1]), requests: 10, throttled: 0, byMethod: {}, pausedHead: 1, indexerPeakRssMb: 1, at: '2026-01-01T00:00:00.000Z',
    check: { ok: true, pools: { checked: 0, missing: 0, stateMismatches: 0, priceMismatches: 0 }, tokens: { checked: 0, missing: 0, swapMismatches: 0 }, usdPrices: { checked: 0, mismatches: 0 }, examples: [] },
    feedEvery: 150, feedRoundSteps: rounds,
  } satisfies FollowBenchResult;
  assert.match(renderFollowBench(result), /one every 150 blocks mined[^\n]*\n\n[^\n]*\n[^\n]*\n\| 5 \| 300\+1 \| 3000 \| 1000 \| 4 \| writeCandles 2900, logs 100 \|/);
});
