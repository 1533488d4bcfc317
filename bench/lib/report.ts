// Result types, targets (PASS/MISS) and the Markdown report quoted by the README.
import type { ThroughputResult, FreshnessResult, LiveWriterResult } from './indexing.ts';
import type { LimiterCost } from './limiter.ts';
import type { LoadResult, ProbeResult } from './load.ts';

export type CaseResult = LoadResult & {
  id: string;
  database: string;
  group: 'rest' | 'supply' | 'rpc';
  label: string;
  variant: string;
  example: string;
  /**
   * Throughput as a fraction of the bare node:http baseline: the one measured right before and
   * right after the case when there is one (`adjacentBaselineRps`), else the run's.
   */
  ratio: number;
  /** Throughput as a fraction of the run's baseline (its first and last measurements). */
  runRatio: number;
  /** Mean req/s of the short baseline runs just before and just after the case, when bracketed. */
  adjacentBaselineRps: number | null;
  /** Share of the case's requests answered from the response cache (REST only). */
  cacheHitRatio: number | null;
  /** The service's memory right after the case (its /metrics), when the case targets the service. */
  memoryAfter?: { rssMb: number; heapUsedMb: number; externalMb: number } | null;
};

export type ProbeCase = ProbeResult & { id: string; label: string };

/**
 * `issue`: a target as the issue states it, on its cases (one URL each). `strict`: the same
 * ratio demanded of the harness's distinct-URL variants, where nothing can come from the cache.
 */
export type Target = { name: string; value: string; threshold: string; pass: boolean; scope: 'issue' | 'strict' };

export type BenchResults = {
  date: string;
  /** The service code measured: HEAD and how many files under src/ differ from it. */
  service?: { commit: string; uncommittedSrcFiles: number };
  mode: 'full' | 'quick';
  node: string;
  cpus: number;
  cpuModel: string;
  platform: string;
  settings: { connections: number; durationSec: number; probeSec: number; serviceEnv: Record<string, string> };
  catalogue: { tokens: number; pricedTokens: number; secureTokens: number; pricePoints: number; swaps: number; writeMs: number; seed: number };
  chain: { blocks: number; swaps: number; txsForLookups: number; startupMs: number };
  baseline: { rps: number; p50Ms: number; p99Ms: number; bytes: number; runs: LoadResult[] };
  cases: CaseResult[];
  probes: ProbeCase[];
  rpcAddedMedianMs: { byHash: number | null; byBlockAndIndex: number | null; byHashUnderLoad: number | null; byBlockAndIndexUnderLoad: number | null };
  memory: Record<string, { peakRssMb: number | null }>;
  /** The rate limiter's cost per database: off/on runs on fresh processes (bench/lib/limiter.ts). */
  limiter?: LimiterCost[];
  /** The demo indexer writing into a database throughout its cases (bench/lib/indexing.ts startLiveWriter). */
  writers?: (LiveWriterResult & { database: string })[];
  indexing: ThroughputResult;
  freshness: FreshnessResult;
  targets: Target[];
  durationMs: number;
};

const fmt = (v: number | null | undefined, digits = 1) => (v === null || v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits));

export function computeTargets(r: Omit<BenchResults, 'targets'>): Target[] {
  const targets: Target[] = [];
  const byId = (db: string, id: string) => r.cases.find((c) => c.database === db && c.id === id);
  const databases = [...new Set(r.cases.map((c) => c.database))];
  for (const db of databases) {
    const ratioTarget = (id: string, name: string, min: number, scope: Target['scope'] = 'issue') => {
      const c = byId(db, id);
      if (c) targets.push({ name: `${name} [${db}]`, value: `${c.ratio.toFixed(2)}× baseline`, threshold: `≥ ${min}`, pass: c.ratio >= min, scope });
    };
    for (const v of ['hot', 'varied'] as const) {
      const scope = v === 'hot' ? 'issue' : 'strict';
      ratioTarget(`tokens.default.${v}`, `Default token list (${v})`, 0.5, scope);
      ratioTarget(`tokens.movers.${v}`, `Top movers (${v})`, 0.5, scope);
      ratioTarget(`tokens.deepPage.${v}`, `Deep page (${v})`, 0.3, scope);
      ratioTarget(`tokens.addresses100.${v}`, `100 addresses (${v})`, 0.3, scope);
    }
    // search: the issue's case is a realistic mix of distinct terms, so varied is its own target
    ratioTarget('candles.fiveMinutes.hot', 'Candles, 1,000 five-minute (hot)', 0.3);
    ratioTarget('prices.at.hot', 'Price at a time (hot)', 0.3);
    ratioTarget('prices.at.varied', 'Price at a time (varied times)', 0.3, 'strict');
    ratioTarget('tokens.search.hot', 'Search (hot)', 0.3);
    ratioTarget('tokens.search.varied', 'Search (varied terms)', 0.3);
    ratioTarget('rpc.byHash.cached', 'Cached RPC eth_getTransactionByHash', 0.5);
    ratioTarget('rpc.byBlockAndIndex.cached', 'Cached RPC eth_getTransactionByBlockNumberAndIndex', 0.5);
    const rest = r.cases.filter((c) => c.database === db && (c.group === 'rest' || c.group === 'supply'));
    const over = rest.filter((c) => c.p99Ms >= 50);
    const worst = [...rest].sort((a, b) => b.p99Ms - a.p99Ms)[0];
    if (rest.length)
      targets.push({
        name: `p99 of every REST case at 50 connections [${db}]`,
        value: over.length ? `${over.length} of ${rest.length} over; worst ${worst?.id} ${fmt(worst?.p99Ms)} ms` : `worst ${worst?.id} ${fmt(worst?.p99Ms)} ms`,
        threshold: '< 50 ms',
        pass: over.length === 0,
        scope: 'issue',
      });
  }
  for (const [key, label] of [['byHash', 'eth_getTransactionByHash'], ['byBlockAndIndex', 'eth_getTransactionByBlockNumberAndIndex']] as const) {
    const added = r.rpcAddedMedianMs[key];
    targets.push({ name: `Uncached RPC ${label}: added median latency over the node`, value: added === null ? 'n/a' : `${added.toFixed(3)} ms`, threshold: '< 1 ms', pass: added !== null && added < 1, scope: 'issue' });
  }
  const main = r.memory['pglite'];
  if (main) targets.push({ name: `Service peak RSS with ${r.catalogue.tokens} tokens [pglite]`, value: `${fmt(main.peakRssMb)} MB`, threshold: '< 300 MB', pass: main.peakRssMb !== null && main.peakRssMb < 300, scope: 'issue' });
  for (const [db, m] of Object.entries(r.memory)) {
    if (db === 'pglite' || !m) continue;
    targets.push({ name: `Service peak RSS with ${r.catalogue.tokens} tokens [${db}]`, value: `${fmt(m.peakRssMb)} MB`, threshold: '< 300 MB', pass: m.peakRssMb !== null && m.peakRssMb < 300, scope: 'issue' });
  }
  return targets;
}

export function renderMarkdown(r: BenchResults): string {
  const out: string[] = [];
  const line = (s = '') => out.push(s);
  line(`# Benchmark results (${r.mode})`);
  line();
  line(`- Date: ${r.date}`);
  if (r.service) line(`- Service code: commit ${r.service.commit}${r.service.uncommittedSrcFiles ? ` plus ${r.service.uncommittedSrcFiles} uncommitted file(s) under src/ (shared working tree)` : ''}`);
  line(`- Node ${r.node} on ${r.platform}, ${r.cpus} cores (${r.cpuModel})`);
  line(`- autocannon: ${r.settings.connections} connections, ${r.settings.durationSec} s per case, keep-alive, no pipelining; latency probes: 1 connection, ${r.settings.probeSec} s`);
  line(`- Catalogue: ${r.catalogue.tokens} tokens (${r.catalogue.pricedTokens} priced, ${r.catalogue.secureTokens} secure), ${r.catalogue.pricePoints} hourly price points, ${r.catalogue.swaps} swaps; written through the storage API in ${(r.catalogue.writeMs / 1000).toFixed(1)} s (seed ${r.catalogue.seed})`);
  line(`- Service: \`npm run serve\` (src/ compiled to dist/, then \`MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=32768 node --max-old-space-size=256 --max-semi-space-size=8 --liftoff-only --enable-source-maps dist/main.js serve\`) with ${Object.entries(r.settings.serviceEnv).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  line(`- Chain: embedded demo chain (Hardhat/EDR over HTTP, own process), ${r.chain.blocks} blocks of history, ${r.chain.swaps} swaps`);
  line(`- Baseline: bare \`node:http\` server answering a pre-serialised ${r.baseline.bytes}-byte JSON body (the size of the default list answer): **${fmt(r.baseline.rps, 0)} req/s** (mean of ${r.baseline.runs.length} runs: ${r.baseline.runs.map((b) => fmt(b.rps, 0)).join(', ')}), p50 ${fmt(r.baseline.p50Ms, 2)} ms, p99 ${fmt(r.baseline.p99Ms, 2)} ms`);
  line();
  line('Ratios are req/s of the case divided by the baseline\'s req/s (2 cores shared by service, load generator and chain: compare ratios, not absolute numbers, across machines). "× baseline" divides by the mean of two short baseline runs made right before and right after the case, so the machine\'s drift from one minute to the next cancels out; the targets use it. "× run baseline" divides by the run\'s baseline above, measured at its start and end. "hot" repeats one URL (answered by the response cache after the first request); "varied" rotates through many distinct URLs (the "cache hits" column shows how many were still answered from the cache).');
  line();
  for (const db of [...new Set(r.cases.map((c) => c.database))]) {
    line(`## Cases on ${db}`);
    line();
    const writer = r.writers?.find((w) => w.database === db);
    if (writer) {
      line(`With the demo indexer writing into this database throughout (${writer.blocks} blocks of trading, ${writer.swaps} swaps; section "Indexing").`);
      line();
    }
    line('| Case | Variant | req/s | × baseline | × run baseline | p50 ms | p99 ms | non-2xx / errors | cache hits | RSS / heap MB after | Target |');
    line('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const c of r.cases.filter((x) => x.database === db)) {
      const t = caseTarget(c);
      line(`| ${c.label} <br>\`${c.example.length > 90 ? `${c.example.slice(0, 87)}…` : c.example}\` | ${c.variant} | ${fmt(c.rps, 0)} | ${c.ratio.toFixed(2)} | ${c.runRatio.toFixed(2)} | ${fmt(c.p50Ms, 2)} | ${fmt(c.p99Ms, 2)} | ${c.non2xx} / ${c.errors} | ${c.cacheHitRatio === null ? '–' : `${Math.round(c.cacheHitRatio * 100)} %`} | ${c.memoryAfter ? `${fmt(c.memoryAfter.rssMb, 0)} / ${fmt(c.memoryAfter.heapUsedMb, 0)}` : '–'} | ${t} |`);
    }
    line();
  }
  if (r.limiter?.length) {
    line('## Rate limiter cost');
    line();
    line('`GET /tokens` (hot) on fresh service processes started the same way back to back, the limiter off (`RATE_LIMIT_PER_SECOND=0 RATE_LIMIT_PER_MINUTE=0`) and on with limits that never trigger (10^6/s, 6·10^7/min), in the order shown (off/on alternated so drift hits both sides alike); each side is the mean req/s of its runs.');
    line();
    line('| Database | runs (req/s, in order) | off req/s | on req/s | on ÷ off | per pair | p50 ms off / on | p99 ms off / on |');
    line('| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |');
    for (const l of r.limiter)
      line(`| ${l.database} | ${l.runs.map((x) => `${x.side} ${fmt(x.rps, 0)}`).join(', ')} | ${fmt(l.off.rps, 0)} | ${fmt(l.on.rps, 0)} | **${l.rpsRatio.toFixed(2)}** | ${l.pairRatios.map((x) => x.toFixed(2)).join(', ') || '–'} | ${fmt(l.off.p50Ms, 2)} / ${fmt(l.on.p50Ms, 2)} | ${fmt(l.off.p99Ms, 2)} / ${fmt(l.on.p99Ms, 2)} |`);
    line();
  }
  line('## JSON-RPC added latency (one connection, no queueing)');
  line();
  line('| Probe | requests | p50 ms | p99 ms |');
  line('| --- | ---: | ---: | ---: |');
  for (const p of r.probes) line(`| ${p.label} | ${p.requests} | ${fmt(p.p50Ms, 3)} | ${fmt(p.p99Ms, 3)} |`);
  line();
  const a = r.rpcAddedMedianMs;
  line(`Added median latency of the uncached service path over calling the node directly: eth_getTransactionByHash **${fmt(a.byHash, 3)} ms**, eth_getTransactionByBlockNumberAndIndex **${fmt(a.byBlockAndIndex, 3)} ms** (at 50 connections, where queueing dominates: ${fmt(a.byHashUnderLoad, 2)} ms and ${fmt(a.byBlockAndIndexUnderLoad, 2)} ms).`);
  line();
  line('## Indexing');
  line();
  for (const w of r.writers ?? []) line(`- Cases on ${w.database} ran with the demo indexer writing (\`npm run index\` following the demo chain, a block of trading every ${w.tradeEveryMs} ms): **${w.blocks} blocks, ${w.swaps} swaps** in ${(w.durationMs / 1000).toFixed(0)} s, each moving prices and the data version the service watches`);
  const i = r.indexing;
  line(`- Backfill of the demo chain (createIndexer + syncOnce until caught up, PGlite in memory, batch ${i.batchSize} blocks): ${i.blocks} blocks, ${i.swaps} swaps (${i.swapRows} swap rows), ${i.rpcRequests} RPC requests in ${(i.durationMs / 1000).toFixed(2)} s → **${fmt(i.blocksPerSecond)} blocks/s, ${fmt(i.swapsPerSecond)} swaps/s**`);
  const f = r.freshness;
  line(`- Freshness lag while following the head (\`main.ts start\`, indexer poll ${f.settings.indexerPollMs} ms, DATA_VERSION_POLL_MS=${f.settings.dataVersionPollMs}, API polled every ${f.settings.apiPollMs} ms): median **${fmt(f.medianSeconds, 2)} s**, max ${fmt(f.maxSeconds, 2)} s over ${f.samples.length} new blocks with swaps (${f.samples.map((s) => (s === null ? 'timeout' : s.toFixed(2))).join(', ')} s)${f.blocksWithoutSwaps ? `; ${f.blocksWithoutSwaps} block${f.blocksWithoutSwaps === 1 ? '' : 's'} without swaps mined in between, not sampled (nothing to show)` : ''}`);
  line();
  line('## Memory');
  line();
  for (const [db, m] of Object.entries(r.memory)) line(`- Peak RSS (VmHWM) of the service on ${db} over its cases: **${fmt(m.peakRssMb)} MB**`);
  line();
  const table = (targets: Target[]) => {
    line('| Target | Measured | Threshold | Result |');
    line('| --- | --- | --- | --- |');
    for (const t of targets) line(`| ${t.name} | ${t.value} | ${t.threshold} | ${t.pass ? 'PASS' : '**MISS**'} |`);
    line();
  };
  line('## Targets');
  line();
  line("The issue's targets on its cases (one URL each, so repeated requests may come from the response cache), p99 over every REST case, hot and varied.");
  line();
  table(r.targets.filter((t) => t.scope === 'issue'));
  const strict = r.targets.filter((t) => t.scope === 'strict');
  if (strict.length) {
    line('## Stricter targets (distinct URLs)');
    line();
    line("The same ratios demanded of the harness's varied cases, where every request is a new URL and nothing comes from the cache: beyond what the issue asks, kept to show what an uncached answer costs.");
    line();
    table(strict);
  }
  line(`Whole run: ${(r.durationMs / 1000).toFixed(0)} s.`);
  return `${out.join('\n')}\n`;
}

function caseTarget(c: CaseResult): string {
  const ratioMin: Record<string, number> = {
    'tokens.default': 0.5, 'tokens.movers': 0.5, 'tokens.deepPage': 0.3, 'tokens.addresses100': 0.3, 'tokens.search': 0.3, 'rpc.byHash': 0.5,
    'rpc.byBlockAndIndex': 0.5, 'candles.fiveMinutes': 0.3, 'prices.at': 0.3,
  };
  const parts: string[] = [];
  const base = c.id.split('.').slice(0, 2).join('.');
  const min = ratioMin[base];
  if (min !== undefined && (c.group === 'rest' ? c.variant === 'hot' || c.variant === 'varied' : c.variant === 'cached'))
    parts.push(`${c.variant === 'varied' && base !== 'tokens.search' ? 'stricter ' : ''}ratio ≥ ${min}: ${c.ratio >= min ? 'PASS' : '**MISS**'}`);
  if (c.group !== 'rpc') parts.push(`p99 < 50: ${c.p99Ms < 50 ? 'PASS' : '**MISS**'}`);
  return parts.join(', ') || '–';
}
