// Runs the benchmark harness in quick mode against the real service (child processes, demo
// chain, tiny catalogue) so the harness cannot silently rot. The full run is `npm run bench`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseArgs, runBenchmark } from '../../bench/run.ts';
import type { BenchResults } from '../../bench/lib/report.ts';

test('bench --quick measures every case against the real service', { timeout: 240_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-quick-'));
  try {
    // PostgreSQL is covered by `npm run bench` with BENCH_DATABASE_URL, not by this test
    // Short cases: this checks the harness end to end, not its figures.
    const options = parseArgs(['--quick', '--duration', '0.3', '--out', out], {});
    const returned = await runBenchmark(options);
    const r = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')) as BenchResults;
    assert.equal(r.mode, 'quick');
    assert.equal(r.cases.length, returned.cases.length);
    assert.match(readFileSync(join(out, 'latest.md'), 'utf8'), /\| Target \| Measured \| Threshold \| Result \|/);

    assert.ok(r.baseline.rps > 0, 'baseline req/s');
    assert.ok(r.baseline.bytes > 1000, 'baseline body has the size of the default list answer');
    const ids = new Set(r.cases.map((c) => c.id));
    for (const id of [
      'tokens.default.hot', 'tokens.default.varied', 'tokens.movers.hot', 'tokens.fdvSecure.hot', 'tokens.deepPage.hot',
      'tokens.deepPage.varied', 'tokens.addresses100.hot', 'tokens.addresses100.varied', 'tokens.one.hot', 'prices.one.hot',
      'prices.many20.hot', 'prices.many20.varied', 'supply.total.raw', 'supply.circulating.json', 'rpc.byHash.cached',
      'rpc.byHash.uncached', 'rpc.byHash.node', 'rpc.byBlockAndIndex.cached', 'rpc.byBlockAndIndex.uncached',
      'rpc.byBlockAndIndex.node', 'tokens.default.limiterOff', 'tokens.default.limiterOn',
    ]) assert.ok(ids.has(id), `case ${id} measured`);
    for (const c of r.cases) {
      assert.ok(c.rps > 0, `${c.id}: req/s > 0`);
      assert.equal(c.non2xx, 0, `${c.id}: no non-2xx answers`);
      assert.equal(c.errors, 0, `${c.id}: no connection errors`);
      assert.equal(c.timeouts, 0, `${c.id}: no timeouts`);
      assert.ok(c.ratio > 0 && Number.isFinite(c.ratio), `${c.id}: ratio to the baseline`);
      assert.ok(c.runRatio > 0 && Number.isFinite(c.runRatio), `${c.id}: ratio to the run's baseline`);
      const bracketed = !['uncached', 'node'].includes(c.variant) && !c.variant.startsWith('limiter');
      if (bracketed) {
        assert.ok(c.adjacentBaselineRps !== null && c.adjacentBaselineRps > 0, `${c.id}: baseline measured next to it`);
        assert.ok(Math.abs(c.ratio - c.rps / c.adjacentBaselineRps) < 0.001, `${c.id}: ratio to the adjacent baseline`);
      } else {
        assert.equal(c.adjacentBaselineRps, null, `${c.id}: no adjacent baseline`);
        assert.equal(c.ratio, c.runRatio, `${c.id}: ratio to the run's baseline`);
      }
      assert.ok(c.p50Ms > 0 && c.p99Ms >= c.p50Ms, `${c.id}: latency percentiles`);
    }
    // "varied" must really take the uncached path, "hot" the cache
    const hits = (id: string) => r.cases.find((c) => c.id === id)?.cacheHitRatio ?? NaN;
    assert.ok(hits('tokens.default.hot') > 0.9, 'hot list answered from the response cache');
    assert.ok(hits('tokens.addresses100.varied') < 0.1, 'varied addresses bypass the response cache');

    for (const p of r.probes) assert.ok(p.requests > 0 && p.failures === 0 && p.p50Ms > 0, `${p.id}: probe answered`);
    assert.equal(typeof r.rpcAddedMedianMs.byHash, 'number');
    assert.equal(typeof r.rpcAddedMedianMs.byBlockAndIndex, 'number');

    assert.ok(r.indexing.blocks > 0 && r.indexing.swaps > 0, 'backfill indexed blocks and swaps');
    assert.ok(r.indexing.blocksPerSecond > 0 && r.indexing.swapsPerSecond > 0, 'indexing throughput');
    assert.ok(r.freshness.samples.length > 0, 'freshness sampled');
    assert.ok(r.freshness.medianSeconds !== null && r.freshness.medianSeconds > 0, 'freshness lag measured');
    assert.ok(r.freshness.samples.every((s) => s !== null), 'every block with swaps showed on the API');

    // the limiter's cost: one off and one on run on fresh processes in quick mode, as a ratio
    const limiter = r.limiter?.find((l) => l.database === 'pglite');
    assert.deepEqual(limiter?.runs.map((x) => x.side), ['off', 'on'], 'limiter off then on, each on a fresh process');
    assert.ok(limiter !== undefined && limiter.rpsRatio > 0 && Number.isFinite(limiter.rpsRatio), 'limiter cost as on/off ratio');
    assert.match(readFileSync(join(out, 'latest.md'), 'utf8'), /## Rate limiter cost/);

    const rss = r.memory.pglite?.peakRssMb;
    assert.ok(rss !== undefined && rss !== null && rss > 20, 'service peak RSS sampled');
    assert.ok(r.targets.length >= 10, 'targets evaluated');
    for (const t of r.targets) assert.equal(typeof t.pass, 'boolean', t.name);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('bench arguments: defaults, quick mode and the PostgreSQL opt-in', () => {
  const full = parseArgs([], {});
  assert.equal(full.quick, false);
  assert.equal(full.durationSec, 10);
  assert.equal(full.connections, 50);
  assert.ok(full.tokens >= 20_000);
  assert.equal(full.databaseUrl, undefined);
  const quick = parseArgs(['--quick', '--duration', '2'], { BENCH_DATABASE_URL: 'postgres://u@127.0.0.1/db' });
  assert.equal(quick.quick, true);
  assert.equal(quick.durationSec, 2);
  assert.ok(quick.tokens <= 1000);
  assert.equal(quick.databaseUrl, 'postgres://u@127.0.0.1/db');
  assert.equal(full.writerEveryMs, 3000, 'on PostgreSQL the demo indexer writes throughout by default');
  assert.equal(parseArgs(['--writer-every-ms', '500'], {}).writerEveryMs, 500);
  assert.equal(parseArgs(['--no-writer'], {}).writerEveryMs, null);
  assert.throws(() => parseArgs(['--duration', 'x'], {}), /--duration/);
});
