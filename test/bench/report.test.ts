// Targets and the Markdown report from a hand-made result: PASS/MISS at the thresholds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeTargets, renderMarkdown, type BenchResults, type CaseResult } from '../../bench/lib/report.ts';
import { percentile } from '../../bench/lib/load.ts';

const load = { requests: 100, rps: 100, p50Ms: 5, p99Ms: 20, maxMs: 30, non2xx: 0, errors: 0, timeouts: 0, bytesPerResponse: 1000, statuses: {} };
const kase = (id: string, ratio: number, p99Ms = 20, group: CaseResult['group'] = 'rest'): CaseResult => ({
  ...load, p99Ms, id, database: 'pglite', group, label: id, variant: id.split('.').at(-1) ?? '', example: '/x', ratio, runRatio: ratio, adjacentBaselineRps: 1000, cacheHitRatio: null,
});

function results(cases: CaseResult[], added = 0.5, rss = 200): Omit<BenchResults, 'targets'> {
  return {
    date: '2026-01-01T00:00:00.000Z', mode: 'quick', node: 'v20', cpus: 2, cpuModel: 'cpu', platform: 'linux x64',
    settings: { connections: 50, durationSec: 1, probeSec: 1, serviceEnv: { NODE_ENV: 'production' } },
    catalogue: { tokens: 20000, pricedTokens: 1, secureTokens: 1, pricePoints: 1, swaps: 1, writeMs: 1, seed: 1 },
    chain: { blocks: 1, swaps: 1, txsForLookups: 1, startupMs: 1 },
    baseline: { rps: 1000, p50Ms: 1, p99Ms: 2, bytes: 100, runs: [] },
    cases, probes: [],
    rpcAddedMedianMs: { byHash: added, byBlockAndIndex: added, byHashUnderLoad: 1, byBlockAndIndexUnderLoad: 1 },
    memory: { pglite: { peakRssMb: rss } },
    indexing: { blocks: 1, swaps: 1, swapRows: 2, batches: 1, batchSize: 500, rpcRequests: 1, durationMs: 1, blocksPerSecond: 1, swapsPerSecond: 1 },
    freshness: { samples: [1], blocksWithoutSwaps: 2, medianSeconds: 1, maxSeconds: 1, settings: { indexerPollMs: 1, dataVersionPollMs: 1, apiPollMs: 1 } },
    durationMs: 1,
  };
}

test('targets pass and miss at their thresholds', () => {
  const t = computeTargets(results([
    kase('tokens.default.hot', 0.5), kase('tokens.default.varied', 0.49), kase('tokens.deepPage.hot', 0.3),
    kase('tokens.addresses100.varied', 0.29, 50), kase('rpc.byHash.cached', 0.6, 80, 'rpc'),
  ], 1, 300));
  const find = (prefix: string) => t.find((x) => x.name.startsWith(prefix));
  assert.equal(find('Default token list (hot)')?.pass, true);
  assert.equal(find('Default token list (varied)')?.pass, false);
  assert.equal(find('Deep page (hot)')?.pass, true);
  assert.equal(find('100 addresses (varied)')?.pass, false);
  assert.equal(find('Cached RPC eth_getTransactionByHash')?.pass, true);
  const p99 = find('p99 of every REST case');
  assert.equal(p99?.pass, false, 'a REST p99 of exactly 50 ms misses; RPC p99s do not count');
  assert.match(p99?.value ?? '', /1 of 4 over/);
  assert.equal(find('Uncached RPC eth_getTransactionByHash')?.pass, false, 'added latency of exactly 1 ms misses');
  assert.equal(find('Service peak RSS')?.pass, false);
  assert.equal(find('Default token list (varied)')?.scope, 'strict', 'distinct URLs: stricter than the issue');
  assert.equal(find('100 addresses (varied)')?.scope, 'strict');
  for (const name of ['Default token list (hot)', 'Deep page (hot)', 'Cached RPC', 'p99 of every REST case', 'Uncached RPC', 'Service peak RSS']) assert.equal(find(name)?.scope, 'issue', name);
});

test('markdown names every case, the baseline and each target result', () => {
  const partial = results([kase('tokens.default.hot', 0.8), kase('tokens.deepPage.varied', 0.1, 70)]);
  const md = renderMarkdown({ ...partial, targets: computeTargets(partial) });
  assert.match(md, /2 cores/);
  assert.match(md, /Node v20/);
  assert.match(md, /tokens\.default\.hot|Default|tokens.default/);
  assert.match(md, /\| PASS \|/);
  assert.match(md, /\*\*MISS\*\*/);
  assert.match(md, /## Targets\n[^#]*Default token list \(hot\) \[pglite\] \| 0\.80× baseline/, 'hot ratios among the issue targets');
  assert.match(md, /## Stricter targets \(distinct URLs\)\n[^#]*Deep page \(varied\) \[pglite\] \| 0\.10× baseline/, 'varied ratios apart');
  assert.match(md, /Baseline: bare `node:http`/);
  assert.match(md, /over 1 new blocks with swaps \(1.00 s\); 2 blocks without swaps mined in between, not sampled/);
  assert.doesNotMatch(md, /Rate limiter cost/, 'no limiter section without limiter runs');
});

test('markdown states the limiter cost as the on/off ratio with its runs', () => {
  const partial = results([kase('tokens.default.hot', 0.8)]);
  const limiter = [{
    database: 'pglite', runs: [{ side: 'off' as const, rps: 1000, p50Ms: 5, p99Ms: 20 }, { side: 'on' as const, rps: 900, p50Ms: 6, p99Ms: 22 }],
    off: { rps: 1000, p50Ms: 5, p99Ms: 20 }, on: { rps: 900, p50Ms: 6, p99Ms: 22 }, rpsRatio: 0.9, pairRatios: [0.9],
  }];
  const md = renderMarkdown({ ...partial, limiter, targets: computeTargets(partial) });
  assert.match(md, /## Rate limiter cost/);
  assert.match(md, /\| pglite \| off 1000, on 900 \| 1000 \| 900 \| \*\*0\.90\*\* \| 0\.90 \|/);
});

test('markdown says which database\'s cases ran with the indexer writing, and how much it wrote', () => {
  const partial = { ...results([kase('tokens.default.hot', 0.8), { ...kase('tokens.default.varied', 0.4), database: 'postgres' }]),
    writers: [{ database: 'postgres', tradeEveryMs: 3000, blocks: 120, swaps: 431, durationMs: 360_000 }] };
  const md = renderMarkdown({ ...partial, targets: computeTargets(partial) });
  assert.match(md, /## Cases on postgres\n\nWith the demo indexer writing into this database throughout \(120 blocks of trading, 431 swaps/);
  assert.doesNotMatch(md, /## Cases on pglite\n\nWith the demo indexer/);
  assert.match(md, /Cases on postgres ran with the demo indexer writing \(`npm run index` following the demo chain, a block of trading every 3000 ms\): \*\*120 blocks, 431 swaps\*\* in 360 s/);
});

test('percentile picks the nearest rank', () => {
  const sorted = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(percentile(sorted, 50), 5);
  assert.equal(percentile(sorted, 99), 10);
  assert.equal(percentile([], 50), 0);
});
