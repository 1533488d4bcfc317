// Runs every test/**/*.test.ts with node's own test runner, each file (or bundle) in a `node --test`
// process of its own, in this script's order (scripts/testQueue.mjs; node's runner would sort them
// by path): the files that measure a standing budget first, alone and in order (SOLO), then the
// others three at a time by default (TEST_CONCURRENCY), the longest first; then
// reports the slowest files and the time against the suite's budget and every skipped test or
// suite with its reason. With TEST_STRICT=1 (.ci/run) a skip fails the run. The TypeScript is
// compiled once per run (scripts/buildTests.mjs) and the test processes run the JavaScript;
// TEST_LOADER=tsx runs the sources through tsx instead, as `node --import tsx --test file` does.
// Usage: npm test [-- path-filter ...]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildTests, root } from './buildTests.mjs';
import { writeProfile } from './testProfile.mjs';
import { bundlePath, groupByWeight, wrapTestFile, writeBundle } from './testBundles.mjs';
import { runTestQueue } from './testQueue.mjs';

/** The standing budget of `npm test` on 2 cores (README, "Tests"). */
const BUDGET_SECONDS = 240;

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return collect(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Files that take tens of seconds start first, so that the run does not end on one long file
 * with the other worker idle.
 */
const SLOW_FIRST = ['test/main/', 'test/demo/', 'test/api/lanes/', 'test/indexer/families'];
const rank = (f) => {
  const i = SLOW_FIRST.findIndex((p) => f.includes(p));
  return i < 0 ? SLOW_FIRST.length : i;
};

/**
 * Files that measure a standing budget on the machine's 2 cores (`npm start` ready within 30 s,
 * the simulated node's eth_getLogs within 250 ms of CPU, the explorer's table rendered within a
 * second in a real browser): they run alone, before the others and in this order (the explorer's
 * file serves the demo snapshot npmStart's file saves), so that they measure what a user gets,
 * not a share of it.
 */
const SOLO = ['test/sim/getLogsSpeed.test.ts', 'test/main/npmStart.test.ts', 'test/main/demoServed.test.ts'];

/**
 * The benchmark harness's end-to-end checks (a minute of load runs; the PostgreSQL cases' live
 * writer) are not part of `npm test`'s budget: `npm run test:bench` runs them, and CI runs that after
 * `npm test`. Naming one runs it too.
 */
const HARNESS = ['test/bench/quick.test.ts', 'test/bench/liveWriter.test.ts'];

/**
 * Files that keep a process of their own: they start processes, chains or browsers, measure time
 * or memory, or take long enough alone. Every other file runs in a bundle (scripts/testBundles.mjs) unless it
 * cannot be wrapped (top-level await); TEST_BUNDLES=0 gives every file its own process.
 */
const OWN_PROCESS = [
  'test/main/', 'test/demo/chain', 'test/demo/deploy', 'test/demo/poolState', 'test/demo/simulate', 'test/demo/snapshot', 'test/demo/tokenList',
  'test/sim/indexer', 'test/sim/provider', 'test/bench/quick', 'test/readModel/memoryPerToken', 'test/api/lanes/differential', 'test/indexer/families', 'test/indexer/headFirst', 'test/indexer/demo.', 'test/sim/exactEdgeTimes',
];
/** How many bundles the bundled files are split into (about two per worker and a few more, for balance). */
const BUNDLES = Number(process.env.TEST_BUNDLES ?? 8);

const filters = process.argv.slice(2);
const files = collect('test')
  .filter((f) => (filters.length === 0 ? !HARNESS.some((h) => f.endsWith(h)) : filters.some((x) => f.includes(x))))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Three processes on the 2 cores: a test process waits now and then (on child processes, chains,
// timers, its database), and a third keeps the cores busy meanwhile (a quiet run took 162 s with
// three at a time, 182 s with two; with PostgreSQL and Redis 185 s against 211 s).
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const summaryDir = mkdtempSync(join(tmpdir(), 'token-api-tests-'));
const started = performance.now();
const compiled = process.env.TEST_LOADER === 'tsx' ? undefined : await buildTests();
const loader = compiled ? ['--enable-source-maps'] : ['--import', 'tsx'];
const fixtures = await buildFixtures();
const solo = SOLO.flatMap((s) => files.filter((f) => f.endsWith(s)));
const others = files.filter((f) => !solo.includes(f));
/** The sources that run in bundles (told to the summary reporter). */
const bundledFiles = [];
const timesPath = join(root, 'node_modules', '.cache', 'token-api-tests', 'file-times.json');
const committedTimesPath = join(root, 'scripts', 'testTimes.json');
const phases = [
  { files: solo.map((f) => (compiled ? compiled.output(f) : f)), concurrency: '1' },
  { files: compiled ? bundled(others) : others, concurrency },
].filter((p) => p.files.length > 0);
let status = 0;
const summaryFiles = [];
const failedFiles = [];
try {
  const env = { ...process.env, ...fixtures.env, TEST_BUNDLED_FILES: JSON.stringify(bundledFiles), NODE_ENV: process.env.NODE_ENV ?? 'test' };
  // A test that hangs fails after 4 minutes instead of holding the run until CI's limit.
  const args = [...loader, '--test-timeout=240000'];
  for (const [i, phase] of phases.entries()) {
    const run = await runTestQueue(phase.files, { concurrency: Number(phase.concurrency), args, env, summaryDir, prefix: `phase-${i}` });
    summaryFiles.push(...run.summaryFiles);
    failedFiles.push(...run.failedFiles);
    status ||= run.status;
  }
} finally {
  if (compiled) rmSync(compiled.outDir, { recursive: true, force: true });
  rmSync(fixtures.dir, { recursive: true, force: true });
}
const seconds = (performance.now() - started) / 1000;

/**
 * The compiled paths to run for `sources`: the files that keep their own process and the bundles
 * of the others, the heaviest first by the times of the last run (node_modules/.cache).
 */
function bundled(sources) {
  // The times committed with the repository (all a fresh clone has), overridden by this
  // machine's last full run: a file missing from both would weigh a guess, and one long file in a
  // bundle weighed by a guess holds the whole run (test/scripts/testTimes.test.ts keeps the
  // committed times complete).
  let times = {};
  for (const path of [committedTimesPath, timesPath]) {
    try {
      times = { ...times, ...JSON.parse(readFileSync(path, 'utf8')) };
    } catch {
      // none there
    }
  }
  const own = [];
  const wrapped = [];
  for (const source of sources) {
    const js = compiled.output(source);
    const ownProcess = BUNDLES === 0 || OWN_PROCESS.some((p) => source.includes(p));
    if (!wrapTestFile(js)) own.push({ path: js, weight: times[source] ?? Infinity });
    // A file of its own is a bundle of one: the same process, and a report of what it leaves behind.
    else if (ownProcess) own.push({ path: writeBundle(bundlePath(compiled.outDir, `own-${own.length + 1}`), [{ source, js }]), weight: times[source] ?? Infinity, source });
    else wrapped.push({ source, js, weight: times[source] ?? 3000 });
  }
  const bundles = groupByWeight(wrapped, BUNDLES).map((g, i) => {
    const path = bundlePath(compiled.outDir, i + 1);
    writeBundle(path, g.files);
    return { path, weight: g.weight };
  });
  bundledFiles.push(...wrapped.map((f) => f.source), ...own.filter((f) => f.source).map((f) => f.source));
  if (bundles.length > 0) console.log(`${wrapped.length} files in ${bundles.length} bundles, ${own.length} in processes of their own (bundles of one but ${own.filter((f) => !f.source).length})`);
  // The longest first (a file with no time yet, first of all, in the files' order), so that the
  // run does not end on one long file with the other worker idle.
  return [...own, ...bundles].map((x, i) => ({ ...x, i })).sort((a, b) => b.weight - a.weight || a.i - b.i).map((x) => x.path);
}

/**
 * What every test file would otherwise build for itself, built once per run, side by side: dist/
 * (`npm start`'s build step: files that start the entry point then skip it, TEST_RUNTIME_BUILT)
 * and the docs site (TEST_DOCS_DIR, read by test/docs/buildDocsOnce.ts). The demo snapshot is
 * kept across runs (TEST_DEMO_SNAPSHOT_DIR, under node_modules/.cache): its keys say when it is
 * stale, and test/main/npmStart.test.ts's start without one builds it there for the run.
 */
async function buildFixtures() {
  const t0 = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'token-api-fixtures-'));
  const docsDir = join(dir, 'docs');
  const run = (args) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} failed:\n${out}`))));
    });
  const docsScript = compiled ? [compiled.output('scripts/build-docs.ts')] : ['--import', 'tsx', 'scripts/build-docs.ts'];
  const snapshotDir = process.env.TEST_DEMO_SNAPSHOT_DIR ?? join(root, 'node_modules', '.cache', 'token-api-tests', 'demo-snapshot');
  const env = { TEST_DEMO_SNAPSHOT_DIR: snapshotDir };
  // Only what the files of this run use (a run of a few files builds nothing it does not need).
  const builds = [];
  if (files.some((f) => f.includes('test/main/'))) builds.push(run(['scripts/build-runtime.mjs']).then(() => (env.TEST_RUNTIME_BUILT = '1')));
  if (files.some((f) => f.includes('test/docs/'))) builds.push(run([...loader, ...docsScript, docsDir]).then(() => (env.TEST_DOCS_DIR = docsDir)));
  await Promise.all(builds);
  if (builds.length > 0) console.log(`built ${[env.TEST_RUNTIME_BUILT && 'dist/', env.TEST_DOCS_DIR && 'the docs site'].filter(Boolean).join(' and ')} for the run in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { dir, env };
}

let entries = [];
for (const summaryFile of summaryFiles) {
  try {
    entries.push(...readFileSync(summaryFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)));
  } catch {
    // no summary: the runner itself failed; its status says so
  }
}
rmSync(summaryDir, { recursive: true, force: true });

const fileEntries = entries.filter((e) => e.kind === 'file');
entries = entries.filter((e) => e.kind !== 'file');
const skipped = entries.filter((e) => e.skip !== null);
const byReason = new Map();
for (const e of skipped) byReason.set(e.skip, (byReason.get(e.skip) ?? 0) + 1);
const how = compiled ? `compiled ${compiled.modules} modules in ${(compiled.ms / 1000).toFixed(1)} s` : 'through tsx';
console.log(`\n${files.length} files in ${seconds.toFixed(1)} s, ${how} (budget ${BUDGET_SECONDS} s for the whole suite on 2 cores)`);
// The whole run's counts (each process printed its own) and, last, every failed test by file.
const leaves = entries.filter((e) => e.leaf);
const failedTests = entries.filter((e) => e.failed && (e.leaf || e.nesting === 0));
console.log(`tests ${leaves.length}, passed ${leaves.filter((e) => !e.failed && e.skip === null).length}, failed ${leaves.filter((e) => e.failed).length}, skipped ${leaves.filter((e) => e.skip !== null).length}`);
if (failedTests.length > 0) console.log(`failing tests:\n${failedTests.map((e) => `  ${e.file}: ${e.name}${e.error ? `\n    ${e.error}` : ''}`).join('\n')}`);
if (failedFiles.length > 0) console.log(`test processes that did not pass:\n${failedFiles.map((f) => `  ${f}`).join('\n')}`);
// A file's time: its process's, from start to exit.
const slowest = fileEntries.filter((e) => !e.bundle).map((e) => [e.file, e.ms]).sort((a, b) => b[1] - a[1]).slice(0, 8);
if (filters.length === 0 && slowest.length > 0) {
  console.log(`slowest files: ${slowest.map(([f, ms]) => `${f} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
}
if (filters.length === 0) {
  // Each file's time (its own process, or its suite in a bundle): the next run's bundle weights.
  mkdirSync(dirname(timesPath), { recursive: true });
  const times = fileEntries.filter((e) => !e.bundle).map((e) => [e.file, e.ms]).sort((a, b) => a[0].localeCompare(b[0]));
  // Copied to scripts/testTimes.json for a fresh clone's balance (a new test file must have its time there).
  writeFileSync(timesPath, `${JSON.stringify(Object.fromEntries(times), null, 1)}\n`);
}
if (process.env.TEST_PROFILE) writeProfile(process.env.TEST_PROFILE, fileEntries, entries);
for (const [reason, count] of byReason) console.log(`skipped ${count} test(s) or suite(s): ${reason}`);

if (process.env.TEST_STRICT === '1' && skipped.length > 0) {
  console.error(`TEST_STRICT=1: ${skipped.length} skipped, none may be`);
  status ||= 1;
}
process.exit(status);
