// scripts/testTimes.json holds each test file's time from a full run: on a fresh clone (CI), the
// only times the runner has to order the files and balance its bundles. A file missing there is
// weighed by a guess, and one long file in a bundle weighed by a guess holds the whole run (a
// 45 s file missing made one bundle 90 s and the run a minute longer), so every file must be there.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
/** The end-to-end harness files npm test leaves to `npm run test:bench` (scripts/run-tests.mjs, HARNESS). */
const HARNESS = ['test/bench/quick.test.ts', 'test/bench/liveWriter.test.ts'];

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

test('scripts/testTimes.json has a time for every test file npm test runs, and none for a file that is gone', () => {
  const times = JSON.parse(readFileSync(join(root, 'scripts', 'testTimes.json'), 'utf8')) as Record<string, number>;
  const files = testFiles(join(root, 'test')).filter((f) => !HARNESS.includes(f));
  const how = 'run the whole npm test, then copy node_modules/.cache/token-api-tests/file-times.json to scripts/testTimes.json';
  assert.deepEqual(files.filter((f) => !(f in times)), [], `test files without a committed time (${how})`);
  assert.deepEqual(Object.keys(times).filter((f) => !files.includes(f)), [], `committed times of files that are gone (${how})`);
  for (const [file, ms] of Object.entries(times)) assert.ok(Number.isFinite(ms) && ms >= 0, `${file}: ${ms} ms`);
  // The harness's own list is the runner's.
  const runner = readFileSync(join(root, 'scripts', 'run-tests.mjs'), 'utf8');
  assert.ok(runner.includes(`const HARNESS = ${JSON.stringify(HARNESS).replaceAll('"', "'").replaceAll(',', ', ')};`), 'HARNESS as in scripts/run-tests.mjs');
});
