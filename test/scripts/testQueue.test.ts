// The test runner's queue (scripts/testQueue.mjs) runs files in the order it is given, which
// node's own runner does not (it sorts the files by path): the files that measure a budget run in
// their order, the longest files first. At most `concurrency` run at once; a failing file fails
// the run, and every file's summary reporter writes its own lines.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, it } from 'node:test';
import { pathToFileURL } from 'node:url';

const repo = resolve(import.meta.dirname, '..', '..');
// From the repository, not from the compiled tests' copy (scripts/*.mjs are not compiled).
const { runTestQueue } = (await import(pathToFileURL(join(repo, 'scripts', 'testQueue.mjs')).href)) as {
  runTestQueue(
    files: string[],
    options: { concurrency: number; args: string[]; env: NodeJS.ProcessEnv; summaryDir: string; prefix: string; write?(text: string): void },
  ): Promise<{ summaryFiles: string[]; status: number; failedFiles: string[] }>;
};
const dir = mkdtempSync(join(tmpdir(), 'test-queue-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const log = join(dir, 'log.txt');

/**
 * A test file that logs its start and end (ms since the epoch) and passes or fails; with
 * `meets`, it ends only once that file has started too (so the two overlap whatever start-up takes).
 */
function file(name: string, { fail = false, meets = '' } = {}): string {
  const path = join(dir, `${name}.test.mjs`);
  writeFileSync(
    path,
    [
      `import { appendFileSync, readFileSync } from 'node:fs';`,
      `import { test } from 'node:test';`,
      `test(${JSON.stringify(name)}, async () => {`,
      `  appendFileSync(${JSON.stringify(log)}, 'start ${name} ' + Date.now() + '\\n');`,
      `  const started = Date.now();`,
      `  while (${JSON.stringify(meets)} && !readFileSync(${JSON.stringify(log)}, 'utf8').includes('start ${meets} ')) {`,
      `    if (Date.now() - started > 30000) throw new Error('${meets} never started beside ${name}');`,
      `    await new Promise((r) => setTimeout(r, 20));`,
      `  }`,
      `  appendFileSync(${JSON.stringify(log)}, 'end ${name} ' + Date.now() + '\\n');`,
      fail ? `  throw new Error('fails on purpose');` : '',
      `});`,
    ].join('\n'),
  );
  return path;
}
const readLog = () => readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ') as [string, string, string]);
/** Runs the queue; what its processes print is kept apart (one fails on purpose). */
async function run(files: string[], concurrency: number) {
  let output = '';
  const result = await runTestQueue(files, {
    concurrency, args: [], env: { ...process.env, TEST_BUNDLED_FILES: '[]' }, summaryDir: dir, prefix: `run-${concurrency}`, write: (text) => (output += text),
  });
  return { ...result, output };
}

it('runs the files in the order given, not sorted by path, one at a time with a concurrency of 1', async () => {
  writeFileSync(log, '');
  const { status, summaryFiles, output } = await run([file('zeta'), file('alpha'), file('mu')], 1);
  assert.equal(status, 0);
  assert.deepEqual(output.split('\n').filter((l) => l.startsWith('▷')).map((l) => l.slice(l.lastIndexOf('/') + 1)), ['zeta.test.mjs', 'alpha.test.mjs', 'mu.test.mjs']);
  assert.deepEqual(readLog().map(([what, name]) => `${what} ${name}`), ['start zeta', 'end zeta', 'start alpha', 'end alpha', 'start mu', 'end mu']);
  // Each process's summary reporter wrote its file line.
  const lines = summaryFiles.flatMap((f) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind?: string; name?: string }));
  assert.equal(lines.filter((l) => l.kind === 'file').length, 3);
  assert.deepEqual(lines.filter((l) => l.kind !== 'file').map((l) => l.name).sort(), ['alpha', 'mu', 'zeta']);
});

it('keeps at most `concurrency` files running, starts them in order, and fails the run when a file fails', async () => {
  writeFileSync(log, '');
  const names = ['f5', 'f4', 'f3', 'f2', 'f1'];
  // f5 and f4 wait for each other: both must run at once.
  const { status, failedFiles } = await run(names.map((n, i) => file(n, { fail: i === 3, meets: i === 0 ? 'f4' : i === 1 ? 'f5' : '' })), 2);
  assert.notEqual(status, 0, 'f2 failed');
  assert.deepEqual(failedFiles, [`${join(dir, 'f2.test.mjs')} (exit code 1)`]);
  const events = readLog();
  // Started in the order given: two processes spawned together may log their start either way round.
  const started = events.filter(([what]) => what === 'start').sort((a, b) => Number(a[2]) - Number(b[2])).map(([, name]) => name);
  assert.deepEqual([...started].sort(), [...names].sort());
  started.forEach((name, k) => assert.ok(Math.abs(names.indexOf(name) - k) < 2, `${name} started ${k + 1}th of ${started.join(', ')}`));
  let running = 0;
  let most = 0;
  for (const [what] of events.sort((a, b) => Number(a[2]) - Number(b[2]))) {
    running += what === 'start' ? 1 : -1;
    most = Math.max(most, running);
  }
  assert.equal(most, 2);
});

it('refuses a concurrency that is not a whole number of processes', async () => {
  await assert.rejects(run([file('one')], Number('abc')), /concurrency must be a whole number/);
  await assert.rejects(run([file('one')], 0), /concurrency must be a whole number/);
});
