// npm run bench:follow -- [--profile linea-day] [--rps 25] [--rtt 30] [--block-ms 2000] [--follow-min 10] [--timestamps] [--retention 7d] [--no-checks-wait] [--feed-every N]
// Following the head: the simulator mines a block of trading every block-ms behind the provider
// profile; `npm run index` (PORT=0, CHAIN_RPC_REQUESTS_PER_SECOND = the provider's rate) bootstraps
// head-first from an empty database. Once the last 7 days are filled (RETENTION_PRICE_CHANGES=7d, or
// --retention's, so the history is complete there) and every priced token was checked, the bench samples every second,
// for follow-min minutes, the simulator's head (GET /stats, not a provider request) against the
// indexer's checkpoint, and the requests the indexer sent, re-checks included. Then it pauses the
// simulator (SIGUSR2: the truth at the head reached), waits for the indexer to reach that head and
// checks every answer against that truth. Writes bench/results/follow-<profile>-<rps>rps.{md,json}.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { profileNamed } from '../../sim/profiles.ts';
import type { Truth } from '../../sim/truth.ts';
import { checkAgainstTruth } from './checkTruth.ts';
import { freshDatabase } from './freshDatabase.ts';
import { startChild, waitFor } from './processes.ts';
import { feedRoundSteps, renderFollowBench, stepsLogged, summarizeLag, summarizeSteps, type FollowBenchResult } from './renderFollow.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'linea-day' },
    rps: { type: 'string', default: '25' },
    rtt: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    'block-ms': { type: 'string', default: '2000' },
    'follow-min': { type: 'string', default: '10' },
    // the longest wait for the bootstrap (7-day window and checks) before following is measured
    'bootstrap-min': { type: 'string', default: '60' },
    timestamps: { type: 'boolean', default: false },
    // price changes kept (and so the history filled before following is measured): 7d, or less for a shorter bootstrap
    retention: { type: 'string', default: '7d' },
    // follow once the history is complete, without waiting for every priced token's contract checks
    'no-checks-wait': { type: 'boolean', default: false },
    server: { type: 'string', default: process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432' },
    database: { type: 'string', default: 'bench_follow' },
    label: { type: 'string' },
    // a USD feed round every this many blocks mined while following (the simulator's --live-feed-every; default the profile's)
    'feed-every': { type: 'string' },
  },
});
const root = resolve(import.meta.dirname, '..', '..');
const databaseUrl = await freshDatabase(values.server!, values.database!);

const outDir = join(root, 'node_modules', '.cache', 'linea-sim', `${values.profile}-${values.seed}-live`);
const sim = startChild(process.execPath, ['--import', 'tsx', join(root, 'sim', 'main.ts'), '--profile', values.profile!, '--seed', values.seed!,
  '--provider', `rps=${values.rps},rtt=${values.rtt},timestamps=${values.timestamps ? 1 : 0}`, '--out', outDir, '--block-ms', values['block-ms']!,
  ...(values['feed-every'] ? ['--live-feed-every', values['feed-every']] : [])]);
const [, simUrl] = await waitFor(sim, /^url=(\S+)$/m, 20 * 60_000);
const [, presetFile] = await waitFor(sim, /^preset=(\S+)$/m, 60_000);
type SimStats = { head: number; requests: number; throttled: number; byMethod: Record<string, number> };
const simStats = async () => (await (await fetch(`${simUrl}/stats`)).json()) as SimStats;

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;
const indexer = startChild('sh', ['-c', pkg.scripts.index!], {
  ...process.env, PORT: '0', CHAIN_RPC_URL: simUrl, DATABASE_URL: databaseUrl, INDEXER_NETWORK_FILE: presetFile,
  CHAIN_RPC_REQUESTS_PER_SECOND: values.rps, RETENTION_PRICE_CHANGES: values.retention,
  // debug: each forward step's 'indexed batch' line with its parts' times (summarized below)
  LOG_LEVEL: 'debug',
});
const db = new pg.Client(databaseUrl);
await db.connect();
const alive = () => {
  if (indexer.process.exitCode !== null || indexer.process.signalCode !== null) throw new Error(`the indexer exited:\n${indexer.output().slice(-3000)}`);
};
const checkpoint = async () => (await db.query<{ block: string; complete: boolean }>(
  `SELECT block_number::text AS block, history_complete AS complete FROM indexer_checkpoint`).catch(() => ({ rows: [] }))).rows[0];

// The bootstrap: history complete (7 days) and no priced token left unchecked.
const bootstrapDeadline = Date.now() + Number(values['bootstrap-min']) * 60_000;
let bootstrapS: number | null = null;
let lastReport = 0;
while (Date.now() < bootstrapDeadline) {
  alive();
  const cp = await checkpoint();
  const [unchecked] = (await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM tokens WHERE current_price IS NOT NULL AND NOT contract_checked`)
    .catch(() => ({ rows: [{ n: '-1' }] }))).rows;
  if (cp?.complete && (unchecked!.n === '0' || values['no-checks-wait'])) {
    bootstrapS = seconds();
    break;
  }
  if (Date.now() - lastReport > 30_000) {
    lastReport = Date.now();
    console.log(`  ${seconds().toFixed(0)} s: bootstrap, checkpoint ${cp?.block ?? '-'}, history complete ${cp?.complete ?? false}, ${unchecked!.n} priced tokens unchecked`);
  }
  await new Promise((r) => setTimeout(r, 2000)); // the count is a scan of the tokens: not so often that the bench loads the database
}

// Following: one sample a second.
const followMs = Number(values['follow-min']) * 60_000;
const before = await simStats();
const followStarted = performance.now();
const followStartedAt = Date.now();
const lags: number[] = [];
const lagSeries: [number, number][] = [];
while (performance.now() - followStarted < followMs) {
  alive();
  const [stats, cp] = await Promise.all([simStats(), checkpoint()]);
  lags.push(stats.head - Number(cp?.block ?? 0));
  lagSeries.push([Date.now() - followStartedAt, lags[lags.length - 1]!]);
  if (Date.now() - lastReport > 30_000) {
    lastReport = Date.now();
    console.log(`  ${seconds().toFixed(0)} s: following, head ${stats.head}, lag ${lags[lags.length - 1]} blocks`);
  }
  await new Promise((r) => setTimeout(r, 1000));
}
const after = await simStats();
const followS = (performance.now() - followStarted) / 1000;
const followEnded = Date.now();
const steps = summarizeSteps(indexer.output(), followStartedAt, followEnded);
const logged = stepsLogged(indexer.output(), followStartedAt, followEnded);
const stepMs = (s: (typeof logged)[number]) => Object.values(s.ms).reduce((a, b) => a + b, 0);
const stepSeries = logged.map((s) => [s.time - followStartedAt, s.blocks, Math.round(stepMs(s))] as [number, number, number]);
const slowSteps = logged
  .filter((s) => stepMs(s) > 2000)
  .map(({ time, ...s }) => ({ at: time - followStartedAt, ...s, ms: Object.fromEntries(Object.entries(s.ms).map(([k, v]) => [k, Math.round(v)])) }));
const followLog = indexer.output().split('\n').filter((line) => {
  if (!line.startsWith('{') || line.includes('"msg":"indexed batch"')) return false;
  try {
    return ((JSON.parse(line) as { time?: number }).time ?? 0) >= followStartedAt;
  } catch {
    return false;
  }
}).slice(0, 200);
const feedEvery = Number(values['feed-every'] ?? profileNamed(values.profile!).feedEvery);
const byMethod = Object.fromEntries(Object.entries(after.byMethod).map(([m, n]) => [m, n - (before.byMethod[m] ?? 0)]).filter(([, n]) => (n as number) > 0));

// The end: mining paused, the indexer at that head, every answer against the truth there.
sim.process.kill('SIGUSR2');
const [, pausedHead, truthFile] = await waitFor(sim, /^paused head=(\d+) truth=(\S+)$/m, 120_000);
const catchUpDeadline = Date.now() + 120_000;
while (Number((await checkpoint())?.block ?? 0) < Number(pausedHead) && Date.now() < catchUpDeadline) await new Promise((r) => setTimeout(r, 250));
await new Promise((r) => setTimeout(r, 3000)); // the step that reached the head commits its supplies and checks with the next poll
const truth = JSON.parse(readFileSync(truthFile!, 'utf8')) as Truth;
const check = await checkAgainstTruth(async <T,>(sql: string) => (await db.query(sql)).rows as T[], truth);
await db.end();
const indexerRss = indexer.peakRssMb();
await indexer.stop();
await sim.stop();

const result: FollowBenchResult = {
  profile: values.profile!, seed: Number(values.seed), rps: Number(values.rps), rttMs: Number(values.rtt), blockMs: Number(values['block-ms']),
  blockTimestamp: values.timestamps!, label: values.label ?? null, bootstrapS, followS,
  blocksMined: after.head - before.head, lag: summarizeLag(lags), steps, retention: values.retention!, checksWaited: !values['no-checks-wait'], requests: after.requests - before.requests,
  throttled: after.throttled - before.throttled, byMethod, pausedHead: Number(pausedHead), check, indexerPeakRssMb: indexerRss, at: new Date().toISOString(),
  lagSeries, stepSeries, slowSteps, followLog,
  feedEvery, feedRoundSteps: feedRoundSteps(logged, feedEvery, lagSeries, followStartedAt),
};
const dir = join(root, 'bench', 'results');
mkdirSync(dir, { recursive: true });
const name = `follow-${values.profile}-${values.rps}rps${values.timestamps ? '-timestamps' : ''}${values.label ? `-${values.label}` : ''}`;
writeFileSync(join(dir, `${name}.json`), JSON.stringify(result, null, 2) + '\n');
writeFileSync(join(dir, `${name}.md`), renderFollowBench(result));
console.log(renderFollowBench(result));
process.exit(check.ok ? 0 : 1);
