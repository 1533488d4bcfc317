// `npm run bench`: the whole benchmark in one go on one machine. See docs/performance.md.
//   tsx bench/run.ts [--quick] [--duration S] [--connections N] [--tokens N] [--out DIR] [--skip-freshness] [--cases ID,...]
//     [--writer-every-ms MS (3000)] [--no-writer] [--cpu-prof DIR]
// --cases runs only the cases whose id starts with one of the given prefixes (and the baseline
// they are compared with; the RPC probes and the limiter pairs only when selected).
// Env: BENCH_DATABASE_URL=postgres://… also runs the REST cases on PostgreSQL (own schema, dropped after),
// with the demo indexer writing into that schema throughout (a block of trading every
// --writer-every-ms; --no-writer leaves the database still).
// --cpu-prof DIR profiles each measured service (node --cpu-prof) and writes the synchronous
// stretches of 200 ms or more that held its event loop to DIR/long-tasks-<database>.md.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { createDatabase } from '../src/db/index.ts';
import { buildCases, probeGenerators, type CaseDef } from './lib/cases.ts';
import { findLongTasks, renderLongTasks } from './lib/cpuProfile.ts';
import { buildCatalogue, candleTokenOf, searchTermsOf, writeCatalogue, type CatalogueReport } from './lib/catalogue.ts';
import { combineRuns, limiterCost, limiterEnv, limiterSchedule, type LimiterCost, type LimiterSide } from './lib/limiter.ts';
import { measureBackfill, measureFreshness, startLiveWriter, type FreshnessResult, type LiveWriter, type LiveWriterResult } from './lib/indexing.ts';
import { probeLatency, runLoad, type LoadResult, type ProbeResult, type RequestSpec } from './lib/load.ts';
import { repoRoot, startBaselineServer, startChainNode, startService, type ChainNode, type Service } from './lib/processes.ts';
import { computeTargets, renderMarkdown, type BenchResults, type CaseResult, type ProbeCase } from './lib/report.ts';

export type RunOptions = {
  quick: boolean;
  durationSec: number;
  connections: number;
  tokens: number;
  outDir: string;
  seed: number;
  skipFreshness: boolean;
  databaseUrl: string | undefined;
  /** On PostgreSQL, ms between the live writer's blocks of trading; null: no writer. */
  writerEveryMs: number | null;
  /** Case id prefixes to run; all cases when undefined. */
  cases?: string[];
  /** Where the measured services' CPU profiles go (--cpu-prof); none when undefined. */
  cpuProfDir?: string;
};

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): RunOptions {
  const quick = argv.includes('--quick');
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, fallback: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}: expected a positive number, got ${raw}`);
    return n;
  };
  return {
    quick,
    durationSec: num('--duration', quick ? 1 : 10),
    connections: num('--connections', 50),
    tokens: Math.round(num('--tokens', quick ? 500 : 24_000)),
    outDir: resolve(value('--out') ?? join(repoRoot, 'bench', 'results')),
    seed: Math.round(num('--seed', 59144)),
    skipFreshness: argv.includes('--skip-freshness'),
    databaseUrl: env.BENCH_DATABASE_URL || undefined,
    writerEveryMs: argv.includes('--no-writer') ? null : num('--writer-every-ms', 3000),
    cases: value('--cases')?.split(',').filter(Boolean),
    cpuProfDir: value('--cpu-prof') === undefined ? undefined : resolve(value('--cpu-prof')!),
  };
}

/** Writes the long tasks of the service profiled in `dir` (its one .cpuprofile) beside it. */
function reportLongTasks(dir: string, database: string): void {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) {
    log(`no CPU profile in ${dir}`);
    return;
  }
  const tasks = findLongTasks(join(dir, file), 200);
  writeFileSync(join(dir, '..', `long-tasks-${database}.md`), renderLongTasks(`${database}: stretches of 200 ms or more (${file})`, tasks));
  log(`${database}: ${tasks.length} synchronous stretches of 200 ms or more, longest ${Math.max(0, ...tasks.map((t) => t.ms))} ms`);
}

/** Cleanups of the run in progress, so that an interrupted run (Ctrl-C) stops its processes too. */
let pendingCleanups: (() => Promise<unknown> | unknown)[] = [];
async function runCleanups(): Promise<void> {
  const list = pendingCleanups.reverse();
  pendingCleanups = [];
  for (const c of list) await Promise.resolve(c()).catch((e: unknown) => log(`cleanup failed: ${String(e)}`));
}

/**
 * Waits until the service's price histories stop growing (its background fill, /metrics
 * `price_histories_held` unchanged over 3 s, at most 5 minutes): the cases measure a process
 * that has settled, as start-up is measured on its own (readyInMs, bench/memory.ts).
 */
async function priceHistoriesFilled(url: string): Promise<{ tokens: number; ms: number }> {
  const started = Date.now();
  const held = async () => Number(/^price_histories_held (\d+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? NaN);
  let last = await held();
  // (a service without the gauge: nothing to wait for)
  for (let same = 0; !Number.isNaN(last) && same < 3 && Date.now() - started < 300_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await held();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return { tokens: last, ms: Date.now() - started };
}

const log = (msg: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

/** Response-cache hits and misses so far, from the service's Prometheus /metrics. */
type Scrape = { hit: number; miss: number; rssMb: number; heapUsedMb: number; externalMb: number };

/** Response-cache counters and memory gauges (prom-client default metrics) from /metrics. */
async function cacheCounts(url: string): Promise<Scrape | undefined> {
  let text: string | undefined;
  for (let attempt = 1; attempt <= 3 && text === undefined; attempt++) {
    try {
      const res = await fetch(`${url}/metrics`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(10_000) });
      text = await res.text();
    } catch (error) {
      log(`reading /metrics failed (attempt ${attempt}): ${String((error as { cause?: unknown }).cause ?? error)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  if (text === undefined) return undefined;
  const count = (result: string) => {
    const m = new RegExp(`^cache_lookups_total\\{[^}]*cache="response"[^}]*result="${result}"[^}]*\\} (\\d+)`, 'm').exec(text)
      ?? new RegExp(`^cache_lookups_total\\{[^}]*result="${result}"[^}]*cache="response"[^}]*\\} (\\d+)`, 'm').exec(text);
    return Number(m?.[1] ?? 0);
  };
  const gaugeMb = (name: string) => Math.round(Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)`, 'm').exec(text)?.[1] ?? NaN) / 104857.6) / 10;
  return {
    hit: count('hit'), miss: count('miss'), rssMb: gaugeMb('process_resident_memory_bytes'),
    heapUsedMb: gaugeMb('nodejs_heap_size_used_bytes'), externalMb: gaugeMb('nodejs_external_memory_bytes'),
  };
}

export async function runBenchmark(options: RunOptions): Promise<BenchResults> {
  const started = performance.now();
  const { quick } = options;
  mkdirSync(options.outDir, { recursive: true });
  const logFile = join(options.outDir, 'service.log');
  writeFileSync(logFile, '');
  const probeSec = quick ? 0.5 : 3;
  const warmSec = quick ? 0.5 : 2;
  const cleanups = pendingCleanups;
  const work = mkdtempSync(join(tmpdir(), 'bench-'));
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));

  try {
    log(`mode ${quick ? 'quick' : 'full'}: ${options.tokens} tokens, ${options.durationSec} s per case, ${options.connections} connections`);
    const node: ChainNode = await startChainNode({ hours: quick ? 3 : 26, seed: options.seed });
    cleanups.push(() => node.stop());
    const info = node.info;
    log(`chain ${info.url}: blocks ${info.history.fromBlock}..${info.history.toBlock}, ${info.history.swaps} swaps, ${info.txs.length} txs (${info.startupMs} ms)`);

    log('indexing backfill');
    const indexing = await measureBackfill(node, { timeoutMs: 300_000 });
    log(`backfill: ${indexing.blocks} blocks, ${indexing.swaps} swaps in ${indexing.durationMs} ms`);

    // The RPC-only service without its cache needs no catalogue: start it while the catalogue is written.
    const net = info.deployment.networkToken;
    const supplyConfig = join(work, 'supply.json');
    writeFileSync(supplyConfig, JSON.stringify({
      source: { kind: 'totalSupply' },
      blockTag: 'latest',
      excludedWallets: [{ address: net.treasury, label: 'Treasury' }, { address: net.ecosystem, label: 'Ecosystem fund' }],
    }));
    const serviceEnv: Record<string, string> = {
      NODE_ENV: 'production', LOG_LEVEL: 'info', VALIDATE_RESPONSES: 'false', RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0',
    };
    // The bench's node is local: no provider's request budget between the service and it.
    const common = { ...serviceEnv, CHAIN_RPC_URL: info.url, CHAIN_RPC_REQUESTS_PER_SECOND: '0', NETWORK_TOKEN_ADDRESS: net.address, SUPPLY_CONFIG: supplyConfig };
    // Its readiness is polled from this process, which the catalogue's writes below keep busy (about
    // 2 minutes for 100,000 tokens on PGlite, in this process): the wait allows for that.
    const uncachedStarting = startService({ mode: 'serve', logFile, readyTimeoutMs: 900_000, env: { ...common, PGLITE_DIR: 'memory://', RPC_CACHE_SIZE: '0' } });
    cleanups.push(() => uncachedStarting.then((s) => s.stop(), () => undefined));

    // --- catalogue
    const now = new Date();
    const catOptions = { count: options.tokens, seed: options.seed, now };
    const catalogue = buildCatalogue(catOptions);
    const pgliteDir = join(work, 'pglite');
    let catalogueReport: CatalogueReport;
    {
      const db = await createDatabase({ pgliteDir });
      try {
        catalogueReport = await writeCatalogue(db, catalogue, catOptions);
      } finally {
        await db.close();
      }
    }
    log(`catalogue on pglite: ${JSON.stringify(catalogueReport)}`);

    const databases: { name: string; env: Record<string, string>; writer?: boolean }[] = [{ name: 'pglite', env: { PGLITE_DIR: pgliteDir } }];
    const writers: (LiveWriterResult & { database: string })[] = [];
    if (options.databaseUrl) {
      const schema = `bench_${randomBytes(5).toString('hex')}`;
      const url = options.databaseUrl;
      cleanups.push(async () => {
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        try {
          await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        } finally {
          await admin.end();
        }
      });
      const db = await createDatabase({ databaseUrl: url, schema });
      try {
        const r = await writeCatalogue(db, catalogue, catOptions);
        log(`catalogue on postgres (schema ${schema}): ${r.writeMs} ms`);
      } finally {
        await db.close();
      }
      const u = new URL(url);
      u.searchParams.set('options', `-c search_path=${schema}`);
      databases.push({ name: 'postgres', env: { DATABASE_URL: u.toString() }, writer: options.writerEveryMs !== null });
    }

    const cases = buildCases({
      seed: options.seed, addresses: catalogue.addresses, priced: catalogue.priced, tokenCount: catalogue.tokens.length,
      networkToken: net.address, txs: info.txs, searchTerms: searchTermsOf(catalogue, options.seed), candles: candleTokenOf(catalogue, catOptions),
    });
    const results: CaseResult[] = [];
    const memory: BenchResults['memory'] = {};
    const limiter: LimiterCost[] = [];
    const baselineRuns: LoadResult[] = [];
    let baselineBytes = 0;
    let baseline: { url: string; stop(): Promise<void> } | undefined;

    const load = (origin: string, next: () => RequestSpec, durationSec = options.durationSec) =>
      runLoad({ origin, next, connections: options.connections, durationSec });
    /** One load run of a case, with the service's response-cache hit ratio and memory after it. */
    const measure = async (c: CaseDef, origin: string, service?: Service) => {
      const before = service ? await cacheCounts(service.url) : undefined;
      const r = await load(origin, c.next);
      const after = service ? await cacheCounts(service.url) : undefined;
      const lookups = after && before ? after.hit - before.hit + (after.miss - before.miss) : 0;
      const hits = after && before ? after.hit - before.hit : 0;
      service?.memory();
      const memoryAfter = after ? { rssMb: after.rssMb, heapUsedMb: after.heapUsedMb, externalMb: after.externalMb } : null;
      return { r, hits, lookups, memoryAfter };
    };
    const record = (c: CaseDef, database: string, r: LoadResult, hits: number, lookups: number, memoryAfter: CaseResult['memoryAfter']) => {
      const cacheHitRatio = c.group === 'rest' && lookups > 0 ? Math.round((hits / lookups) * 1000) / 1000 : null;
      results.push({ ...r, id: c.id, database, group: c.group, label: c.label, variant: c.variant, example: c.example, ratio: 0, runRatio: 0, adjacentBaselineRps: null, cacheHitRatio, memoryAfter });
      return cacheHitRatio;
    };
    const runCase = async (c: CaseDef, database: string, origin: string, service?: Service) => {
      const { r, hits, lookups, memoryAfter } = await measure(c, origin, service);
      const cacheHitRatio = record(c, database, r, hits, lookups, memoryAfter);
      log(`${database} ${c.id}: ${r.rps} req/s p50 ${r.p50Ms} p99 ${r.p99Ms} non2xx ${r.non2xx} errors ${r.errors}${cacheHitRatio === null ? '' : ` hits ${cacheHitRatio}`}`);
    };
    // At least a second in a real run; a quick run (a check of the harness) keeps it as short as its cases.
    const adjacentSec = quick ? Math.min(1, options.durationSec) : Math.max(1, Math.min(2, Math.round(options.durationSec / 2)));
    /** A short baseline run next to a case (the baseline server is up from the first service on). */
    const adjacentBaseline = async () => (baseline ? (await load(baseline.url, () => ({ path: '/' }), adjacentSec)).rps : 0);
    const chosen = (c: CaseDef) => (options.cases ? options.cases.some((p) => c.id.startsWith(p)) : !quick || c.quick);
    const selected = (f: (c: CaseDef) => boolean) => cases.filter((c) => chosen(c) && f(c));
    const warm = async (url: string) => {
      const paths = ['/tokens', '/tokens?page=2', '/tokens?order=swaps&sort=desc', `/tokens/${catalogue.addresses[1]}`, `/prices/${catalogue.priced[1]}`];
      let i = 0;
      await runLoad({ origin: url, next: () => ({ path: paths[i++ % paths.length] ?? '/tokens' }), connections: 10, durationSec: warmSec });
    };

    for (const [d, database] of databases.entries()) {
      const primary = d === 0;
      let writer: LiveWriter | undefined;
      if (database.writer) {
        log(`live writer on ${database.name}: the demo indexer catching up, then a block of trading every ${options.writerEveryMs} ms`);
        writer = await startLiveWriter(node, { databaseUrl: database.env.DATABASE_URL!, logFile, tradeEveryMs: options.writerEveryMs!, timeoutMs: 300_000 });
        cleanups.push(() => writer?.stop().then(() => undefined, () => undefined));
      }
      log(`service on ${database.name}`);
      const profDir = options.cpuProfDir && join(options.cpuProfDir, database.name);
      if (profDir) mkdirSync(profDir, { recursive: true });
      const service = await startService({ mode: 'serve', logFile, env: { ...common, ...database.env }, ...(profDir ? { cpuProfDir: profDir } : {}) });
      try {
        if (primary) {
          const body = await (await fetch(`${service.url}/tokens`)).text();
          baselineBytes = Buffer.byteLength(body);
          baseline = await startBaselineServer(body);
          cleanups.push(() => baseline?.stop());
          await load(baseline.url, () => ({ path: '/' }), warmSec); // warm-up, not recorded
          baselineRuns.push(await load(baseline.url, () => ({ path: '/' })));
          log(`baseline: ${baselineRuns[0]?.rps} req/s (${baselineBytes} bytes)`);
        }
        const filled = await priceHistoriesFilled(service.url);
        log(`price histories held on ${database.name}: ${filled.tokens} (${filled.ms} ms after the first cases could start)`);
        await warm(service.url);
        // Every case between two short baseline runs: this machine's speed drifts from one minute
        // to the next (the node itself measured at half its speed mid-run while the run's
        // baselines at start and end agreed within 5 %), and a ratio is only as good as its reference.
        let before = await adjacentBaseline();
        for (const c of selected((c) => c.target === 'service' && (primary || c.group === 'rest'))) {
          if (c.group === 'rpc' && c.variant === 'cached') {
            // fill the RPC cache with every lookup of the rotation first
            const fill = c.next;
            await probeLatency(service.url, fill, { durationSec: 30, maxRequests: info.txs.length });
          }
          await runCase(c, database.name, service.url, service);
          const after = await adjacentBaseline();
          results[results.length - 1]!.adjacentBaselineRps = Math.round(((before + after) / 2) * 10) / 10;
          before = after;
        }
      } finally {
        const { peakRssKb } = await service.stop();
        memory[database.name] = { peakRssMb: peakRssKb === undefined ? null : Math.round(peakRssKb / 102.4) / 10 };
        if (profDir) reportLongTasks(profDir, database.name);
        if (writer) {
          const w = await writer.stop();
          writer = undefined;
          writers.push({ database: database.name, ...w });
          log(`live writer on ${database.name}: ${w.blocks} blocks, ${w.swaps} swaps in ${(w.durationMs / 1000).toFixed(0)} s`);
        }
      }

      // The limiter's own cost: off/on pairs, each on a fresh process started the same way.
      const pairCases = selected((c) => c.target === 'limiterPair');
      if (pairCases.length) {
        const runs: { side: LimiterSide; result: LoadResult }[] = [];
        const sides = new Map<LimiterSide, { results: LoadResult[]; hits: number; lookups: number; memoryAfter: CaseResult['memoryAfter'] }>();
        for (const side of limiterSchedule(quick ? 1 : 2)) {
          const c = pairCases.find((x) => x.limiter === side);
          if (!c) continue;
          const fresh = await startService({ mode: 'serve', logFile, env: { ...common, ...database.env, ...limiterEnv[side] } });
          try {
            await warm(fresh.url);
            const m = await measure(c, fresh.url, fresh);
            runs.push({ side, result: m.r });
            const acc = sides.get(side) ?? { results: [], hits: 0, lookups: 0, memoryAfter: null };
            sides.set(side, { results: [...acc.results, m.r], hits: acc.hits + m.hits, lookups: acc.lookups + m.lookups, memoryAfter: m.memoryAfter });
            log(`${database.name} ${c.id} (fresh process ${runs.length}): ${m.r.rps} req/s p50 ${m.r.p50Ms} p99 ${m.r.p99Ms} non2xx ${m.r.non2xx} errors ${m.r.errors}`);
          } finally {
            await fresh.stop();
          }
        }
        for (const c of pairCases) {
          const acc = c.limiter ? sides.get(c.limiter) : undefined;
          if (acc) record(c, database.name, combineRuns(acc.results), acc.hits, acc.lookups, acc.memoryAfter);
        }
        const cost = limiterCost(database.name, runs);
        limiter.push(cost);
        log(`${database.name} limiter on/off: ${cost.rpsRatio} (pairs ${cost.pairRatios.join(', ')})`);
      }
    }

    // --- JSON-RPC without the cache, and the node itself (database-independent: once)
    const probes: ProbeCase[] = [];
    const uncached = await uncachedStarting;
    const gens = probeGenerators(info.txs);
    try {
      await runLoad({ origin: uncached.url, next: gens.byHash('/rpc'), connections: 10, durationSec: warmSec }); // warm-up
      for (const c of selected((c) => c.target === 'uncachedRpc')) await runCase(c, 'pglite', uncached.url);
      for (const c of selected((c) => c.target === 'node')) await runCase(c, 'pglite', info.url);
      for (const key of options.cases && !options.cases.some((p) => p.startsWith('rpc') || p.startsWith('probe')) ? [] : (['byHash', 'byBlockAndIndex'] as const)) {
        // Alternating rounds, so drift (other load on the machine) hits both sides alike; each side
        // reports the median of its rounds' p50 and the worst p99.
        const rounds = 4;
        const svc: ProbeResult[] = [];
        const direct: ProbeResult[] = [];
        for (let round = 0; round < rounds; round++) {
          svc.push(await probeLatency(uncached.url, gens[key]('/rpc'), { durationSec: probeSec / rounds }));
          direct.push(await probeLatency(info.url, gens[key]('/'), { durationSec: probeSec / rounds }));
        }
        const combine = (rs: ProbeResult[]): ProbeResult => {
          const p50s = rs.map((r) => r.p50Ms).sort((a, b) => a - b);
          const mid = (p50s[Math.floor((p50s.length - 1) / 2)]! + p50s[Math.ceil((p50s.length - 1) / 2)]!) / 2;
          return {
            requests: rs.reduce((n, r) => n + r.requests, 0),
            p50Ms: Math.round(mid * 1000) / 1000,
            p99Ms: Math.max(...rs.map((r) => r.p99Ms)),
            failures: rs.reduce((n, r) => n + r.failures, 0),
          };
        };
        const method = key === 'byHash' ? 'eth_getTransactionByHash' : 'eth_getTransactionByBlockNumberAndIndex';
        const s = combine(svc);
        const n = combine(direct);
        probes.push({ ...s, id: `probe.${key}.uncached`, label: `${method} via the service, uncached` });
        probes.push({ ...n, id: `probe.${key}.node`, label: `${method} on the node directly` });
        log(`probe ${key}: service p50 ${s.p50Ms} ms, node p50 ${n.p50Ms} ms (rounds ${svc.map((r) => r.p50Ms).join('/')} vs ${direct.map((r) => r.p50Ms).join('/')})`);
      }
    } finally {
      await uncached.stop();
    }
    const probe = (id: string) => probes.find((p) => p.id === id)?.p50Ms;
    const added = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? null : Math.round((a - b) * 1000) / 1000);
    const caseP50 = (id: string) => results.find((c) => c.id === id)?.p50Ms;

    if (baseline) {
      baselineRuns.push(await load(baseline.url, () => ({ path: '/' })));
      log(`baseline again: ${baselineRuns[1]?.rps} req/s`);
    }
    const mean = (f: (r: LoadResult) => number) => baselineRuns.reduce((s, r) => s + f(r), 0) / Math.max(1, baselineRuns.length);
    const baselineRps = mean((r) => r.rps);
    const ratio = (rps: number, base: number) => (base > 0 ? Math.round((rps / base) * 1000) / 1000 : 0);
    for (const c of results) {
      c.runRatio = ratio(c.rps, baselineRps);
      c.ratio = c.adjacentBaselineRps ? ratio(c.rps, c.adjacentBaselineRps) : c.runRatio;
    }

    let freshness: FreshnessResult = { samples: [], blocksWithoutSwaps: 0, medianSeconds: null, maxSeconds: null, settings: { indexerPollMs: 1000, dataVersionPollMs: 1000, apiPollMs: 20 } };
    if (!options.skipFreshness) {
      log('freshness lag');
      freshness = await measureFreshness(node, { iterations: quick ? 1 : 6, logFile, seed: options.seed, timeoutMs: 120_000 });
      log(`freshness: ${JSON.stringify(freshness.samples)}`);
    }

    const git = (args: string[]) => {
      const r = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
      return r.status === 0 ? r.stdout.trim() : '';
    };
    const partial: Omit<BenchResults, 'targets'> = {
      date: new Date().toISOString(),
      service: { commit: git(['rev-parse', '--short', 'HEAD']), uncommittedSrcFiles: git(['status', '--porcelain', '--', 'src']).split('\n').filter(Boolean).length },
      mode: quick ? 'quick' : 'full',
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      platform: `${process.platform} ${process.arch}`,
      settings: { connections: options.connections, durationSec: options.durationSec, probeSec, serviceEnv },
      catalogue: { ...catalogueReport, seed: options.seed },
      chain: { blocks: info.history.toBlock - info.history.fromBlock + 1, swaps: info.history.swaps, txsForLookups: info.txs.length, startupMs: info.startupMs },
      baseline: { rps: Math.round(baselineRps * 10) / 10, p50Ms: mean((r) => r.p50Ms), p99Ms: mean((r) => r.p99Ms), bytes: baselineBytes, runs: baselineRuns },
      cases: results,
      probes,
      rpcAddedMedianMs: {
        byHash: added(probe('probe.byHash.uncached'), probe('probe.byHash.node')),
        byBlockAndIndex: added(probe('probe.byBlockAndIndex.uncached'), probe('probe.byBlockAndIndex.node')),
        byHashUnderLoad: added(caseP50('rpc.byHash.uncached'), caseP50('rpc.byHash.node')),
        byBlockAndIndexUnderLoad: added(caseP50('rpc.byBlockAndIndex.uncached'), caseP50('rpc.byBlockAndIndex.node')),
      },
      memory,
      limiter,
      writers,
      indexing,
      freshness,
      durationMs: Math.round(performance.now() - started),
    };
    const final: BenchResults = { ...partial, targets: computeTargets(partial) };
    writeFileSync(join(options.outDir, 'latest.json'), `${JSON.stringify(final, null, 2)}\n`);
    writeFileSync(join(options.outDir, 'latest.md'), renderMarkdown(final));
    log(`wrote ${join(options.outDir, 'latest.json')} and latest.md in ${(final.durationMs / 1000).toFixed(0)} s`);
    return final;
  } finally {
    await runCleanups();
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void runCleanups().finally(() => process.exit(130));
    });
  runBenchmark(parseArgs(process.argv.slice(2)))
    .then((r) => {
      process.stdout.write(renderMarkdown(r));
      process.exit(0);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
