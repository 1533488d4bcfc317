// npm run bench:index -- [--profile demo-size] [--rps 25] [--rtt 30] [--seed 1] [--timeout-min 60] [--timestamps] [--until 1h|24h|7d|all] [--no-checks-wait]
// The indexer from an empty PostgreSQL database against the simulated network through the provider
// profile: the simulator and `npm run index` (its package script, CHAIN_RPC_REQUESTS_PER_SECOND set
// to the provider's rate) run as processes; the bench waits until the checkpoint is the head, then
// writes bench/results/index-<profile>-<rps>rps.{md,json}: time to head, requests by method, database
// size, peak RSS and CPU of each process, swaps/s, and the answers checked against the truth.
// The database is bench_index, or --database NAME (dropped and created; never the tests' `test`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Truth } from '../../sim/truth.ts';
import { checkAgainstTruth } from './checkTruth.ts';
import { freshDatabase } from './freshDatabase.ts';
import { startChild, waitFor } from './processes.ts';
import { renderIndexBench, type IndexBenchResult } from './render.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'demo-size' },
    rps: { type: 'string', default: '25' },
    rtt: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    'timeout-min': { type: 'string', default: '60' },
    server: { type: 'string', default: process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432' },
    label: { type: 'string' },
    // the database the bench drops and creates (never the tests' `test`)
    database: { type: 'string', default: 'bench_index' },
    // logs carry blockTimestamp (some providers add it)
    timestamps: { type: 'boolean', default: false },
    // head-first: wait until this window of history is complete (1h, 24h, 7d, all) and the priced tokens' contract checks ran
    until: { type: 'string', default: '24h' },
    // stop once the window is complete, without waiting for the contract checks (they still run, within the same budget)
    'no-checks-wait': { type: 'boolean', default: false },
    // the indexer's LOG_LEVEL, and a file its whole output is written to at the end
    'log-level': { type: 'string', default: 'info' },
    'indexer-log': { type: 'string' },
  },
});
const root = resolve(import.meta.dirname, '..', '..');
const databaseUrl = await freshDatabase(values.server!, values.database!);

const simStarted = performance.now();
const outDir = join(root, 'node_modules', '.cache', 'linea-sim', `${values.profile}-${values.seed}`);
const sim = startChild(process.execPath, ['--import', 'tsx', join(root, 'sim', 'main.ts'), '--profile', values.profile!, '--seed', values.seed!,
  '--provider', `rps=${values.rps},rtt=${values.rtt},timestamps=${values.timestamps ? 1 : 0}`, '--out', outDir]);
const [, simUrl] = await waitFor(sim, /^url=(\S+)$/m, 20 * 60_000);
const [, presetFile] = await waitFor(sim, /^preset=(\S+)$/m, 60_000);
const [, truthFile] = await waitFor(sim, /^truth=(\S+)$/m, 60_000);
const simStartupS = (performance.now() - simStarted) / 1000;
const truth = JSON.parse(readFileSync(truthFile!, 'utf8')) as Truth;
console.log(`sim ${values.profile} serving at ${simUrl} after ${simStartupS.toFixed(1)} s, head ${truth.head}`);

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const indexStarted = performance.now();
// `sh -c` of the package script: its last command is exec'd, so the child's pid becomes the indexer's node process.
const indexer = startChild('sh', ['-c', pkg.scripts.index!], {
  ...process.env, PORT: '0', CHAIN_RPC_URL: simUrl, DATABASE_URL: databaseUrl, INDEXER_NETWORK_FILE: presetFile, CHAIN_RPC_REQUESTS_PER_SECOND: values.rps, LOG_LEVEL: values['log-level'],
});
const db = new pg.Client(databaseUrl);
await db.connect();
const deadline = Date.now() + Number(values['timeout-min']) * 60_000;
let indexed = -1;
let lastReport = 0;
for (;;) {
  const rows = await db.query<{ block: string }>(`SELECT block_number::text AS block FROM indexer_checkpoint`).catch(() => ({ rows: [] as { block: string }[] }));
  indexed = rows.rows[0] ? Number(rows.rows[0].block) : -1;
  if (indexed >= truth.head) break;
  if ((indexer.process.exitCode !== null || indexer.process.signalCode !== null)) throw new Error(`the indexer exited:\n${indexer.output().slice(-3000)}`);
  if (Date.now() > deadline) break;
  if (Date.now() - lastReport > 30_000) {
    lastReport = Date.now();
    console.log(`  ${((performance.now() - indexStarted) / 1000).toFixed(0)} s: block ${indexed} of ${truth.head}`);
  }
  await new Promise((r) => setTimeout(r, 250));
}
const reachedHead = indexed >= truth.head;
const toHeadS = (performance.now() - indexStarted) / 1000;
// Head-first: the catalogue is served at the head at once; the windows fill newest first. Each
// phase's time is when the checkpoint first says its window is complete (history_from_time at or
// before head time − window, or the history complete); the contract checks' when every priced token
// has been checked.
const WINDOWS: Record<string, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, all: Infinity };
const phases: Record<string, number | null> = { '1h': null, '24h': null, '7d': null, all: null, checks: null };
const wanted = WINDOWS[values.until!] ?? WINDOWS['24h']!;
while (reachedHead && Date.now() < deadline) {
  const [cp] = (await db.query<{ complete: boolean; fromTime: Date | null; blockTime: Date }>(
    `SELECT history_complete AS complete, history_from_time AS "fromTime", block_time AS "blockTime" FROM indexer_checkpoint`)).rows;
  const [unchecked] = (await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM tokens WHERE current_price IS NOT NULL AND NOT contract_checked`)).rows;
  const now = (performance.now() - indexStarted) / 1000;
  for (const [name, ms] of Object.entries(WINDOWS)) {
    if (phases[name] === null && cp && (cp.complete || (cp.fromTime !== null && cp.fromTime.getTime() <= cp.blockTime.getTime() - ms))) phases[name] = now;
  }
  if (phases.checks === null && Number(unchecked!.n) === 0) phases.checks = now;
  const doneWindow = Object.entries(WINDOWS).every(([name, ms]) => ms > wanted || phases[name] !== null);
  if (doneWindow && (phases.checks !== null || values['no-checks-wait'])) break;
  if ((indexer.process.exitCode !== null || indexer.process.signalCode !== null)) throw new Error(`the indexer exited:\n${indexer.output().slice(-3000)}`);
  if (Date.now() - lastReport > 30_000) {
    lastReport = Date.now();
    console.log(`  ${now.toFixed(0)} s: history from ${cp?.fromTime?.toISOString() ?? '?'} (head ${cp?.blockTime.toISOString()}), ${unchecked!.n} priced tokens unchecked`);
  }
  await new Promise((r) => setTimeout(r, 1000)); // the count scans the tokens: not so often that the bench loads the database
}
// Contract checks started at the head land with the next step: one poll interval more.
await new Promise((r) => setTimeout(r, 3000));
const query = async <T,>(sql: string) => (await db.query(sql)).rows as T[];
const check = await checkAgainstTruth(query, truth, { swapCounts: phases['24h'] !== null });
const [size] = await query<{ bytes: string }>(`SELECT pg_database_size(current_database())::text AS bytes`);
const [swaps] = await query<{ n: string }>(`SELECT count(DISTINCT (block_number, log_index))::text AS n FROM swaps`);
const [counts] = await query<{ pools: string; tokens: string }>(`SELECT (SELECT count(*) FROM indexer_pools)::text AS pools, (SELECT count(*) FROM tokens)::text AS tokens`);
await db.end();
if (values['indexer-log']) writeFileSync(values['indexer-log'], indexer.output());
const indexerRss = indexer.peakRssMb();
const indexerCpu = indexer.cpuSeconds();
await indexer.stop();
const simRss = sim.peakRssMb();
const simCpu = sim.cpuSeconds();
await sim.stop();
const simOut = sim.output();
const byMethod = Object.fromEntries([...simOut.matchAll(/^method (\S+)=(\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
const num = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(simOut)?.[1] ?? NaN);
const wallS = (performance.now() - simStarted) / 1000;

const result: IndexBenchResult = {
  profile: values.profile!, seed: Number(values.seed), rps: Number(values.rps), rttMs: Number(values.rtt), label: values.label ?? null,
  head: truth.head, reachedHead, indexedBlock: indexed, toHeadS, simStartupS, phases, blockTimestamp: values.timestamps!, checksWaited: !values['no-checks-wait'],
  requests: num('requests'), throttled: num('throttled'), logRangeRefusals: num('logRangeRefusals'), byMethod,
  databaseMb: Number(size!.bytes) / 1e6, swapsIndexed: Number(swaps!.n), swapsPerS: Number(swaps!.n) / toHeadS,
  pools: Number(counts!.pools), tokens: Number(counts!.tokens),
  processes: [
    { name: 'indexer (npm run index)', peakRssMb: indexerRss, cpuS: indexerCpu },
    { name: 'simulator', peakRssMb: simRss, cpuS: simCpu },
  ],
  simCpuShare: simCpu / wallS,
  check,
  at: new Date().toISOString(),
  indexerLogTail: indexer.output().split('\n').slice(-40),
};
const dir = join(root, 'bench', 'results');
mkdirSync(dir, { recursive: true });
const name = `index-${values.profile}-${values.rps}rps${values.timestamps ? '-timestamps' : ''}${values.label ? `-${values.label}` : ''}`;
writeFileSync(join(dir, `${name}.json`), JSON.stringify(result, null, 2) + '\n');
writeFileSync(join(dir, `${name}.md`), renderIndexBench(result));
console.log(renderIndexBench(result));
process.exit(reachedHead && check.ok ? 0 : 1);
