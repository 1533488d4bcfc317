// Test files bundled into one process (scripts/testBundles.mjs) run as they run alone: each file's
// top-level hooks stay its own, its tests are reported under its own path by the summary reporter,
// its lines keep their numbers, and a file with top-level await is left to a process of its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

const repo = resolve(import.meta.dirname, '..', '..');
type File = { source: string; js: string };
// From the repository, not from the compiled tests' copy (scripts/*.mjs are not compiled).
const { bundlePath, groupByWeight, wrapTestFile, writeBundle } = (await import(pathToFileURL(join(repo, 'scripts', 'testBundles.mjs')).href)) as {
  bundlePath(outDir: string, n: number): string;
  groupByWeight<T extends { source: string; weight: number }>(files: T[], count: number): { files: T[]; weight: number }[];
  wrapTestFile(jsPath: string): boolean;
  writeBundle(path: string, files: File[]): void;
};
const dir = mkdtempSync(join(tmpdir(), 'test-bundles-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A compiled test file as esbuild writes one: a comment, its imports, its body, its source map line. */
function compiled(name: string, body: string[]): string {
  const path = join(dir, 'test', name);
  mkdirSync(join(dir, 'test'), { recursive: true });
  writeFileSync(path, [`// test/${name.replace(/\.js$/, '.ts')}`, `import assert from "node:assert/strict";`, `import { after, before, describe, it, test } from "node:test";`, ...body, `//# sourceMappingURL=${name}.map`, ''].join('\n'));
  return path;
}

describe('scripts/testBundles.mjs', () => {
  const order = join(dir, 'order.txt');
  const first = compiled('a.test.js', [
    `var log = (s) => (globalThis.__order ??= []).push(s);`,
    `before(() => log("a:before"));`,
    `after(() => log("a:after"));`,
    `test("a one", () => log("a:one"));`,
    `describe("a suite", () => { it("a two", () => log("a:two")); });`,
  ]);
  const second = compiled('b.test.js', [
    `var log = (s) => (globalThis.__order ??= []).push(s);`,
    `before(() => log("b:before"));`,
    `after(async () => { log("b:after"); (await import("node:fs")).writeFileSync(${JSON.stringify(order)}, globalThis.__order.join(",")); });`,
    `test("b one", { skip: "a reason" }, () => {});`,
    `test("b throws", () => { throw new Error("on line 8"); });`,
  ]);
  const awaiting = compiled('c.test.js', [`await Promise.resolve();`, `test("c", () => {});`]);

  it('wraps files without top-level await, line for line; leaves the others', () => {
    const before = readFileSync(first, 'utf8').split('\n').length;
    assert.equal(wrapTestFile(first), true);
    assert.equal(wrapTestFile(second), true);
    assert.equal(wrapTestFile(awaiting), false);
    assert.equal(readFileSync(first, 'utf8').split('\n').length, before + 1, 'one line more: the closing brace, after the last');
    assert.match(readFileSync(first, 'utf8'), /^export default function __registerTestFile\(\) \{var log/m);
    assert.match(readFileSync(awaiting, 'utf8'), /^await Promise\.resolve\(\);$/m);
  });

  it('runs a bundle: hooks per file, tests reported under their files, one level up, with their lines', () => {
    const bundle = bundlePath(dir, 1);
    writeBundle(bundle, [
      { source: 'test/a.test.ts', js: first },
      { source: 'test/b.test.ts', js: second },
    ]);
    const summary = join(dir, 'summary.jsonl');
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${join(repo, 'scripts', 'testSummaryReporter.mjs')}`, `--test-reporter-destination=${summary}`, bundle], {
      encoding: 'utf8',
      // Not a child of this run's runner: a run of its own.
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')), TEST_BUNDLED_FILES: JSON.stringify(['test/a.test.ts', 'test/b.test.ts']) },
    });
    assert.equal(r.status, 1, 'b throws: the run fails');
    assert.match(r.stdout, /b\.test\.js:8/, 'the thrown error keeps its line');
    assert.equal(readFileSync(order, 'utf8'), 'a:before,a:one,a:two,a:after,b:before,b:after');
    const lines = readFileSync(summary, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const files = lines.filter((l) => l.kind === 'file');
    assert.deepEqual(files.map((f) => [f.file, f.bundled ?? null, f.bundle ?? null]), [
      ['test/a.test.ts', 'test/bundles/bundle-1.test.ts', null],
      ['test/b.test.ts', 'test/bundles/bundle-1.test.ts', null],
      ['test/bundles/bundle-1.test.ts', null, true],
    ]);
    const tests = lines.filter((l) => l.kind === undefined).map((l) => [l.file, l.name, l.nesting, l.leaf, l.failed, l.skip]);
    assert.deepEqual(tests, [
      ['test/a.test.ts', 'a one', 0, true, false, null],
      ['test/a.test.ts', 'a two', 1, true, false, null],
      ['test/a.test.ts', 'a suite', 0, false, false, null],
      ['test/b.test.ts', 'b one', 0, true, false, 'a reason'],
      ['test/b.test.ts', 'b throws', 0, true, true, null],
    ]);
    assert.deepEqual(lines.filter((l) => l.failed).map((l) => l.error), ['on line 8'], 'a failure carries its message, for the run\'s summary');
  });

  it('groups files into bundles of similar weight, the heaviest first', () => {
    const groups = groupByWeight([5, 1, 4, 2, 3, 3].map((weight, i) => ({ source: `f${i}`, weight })), 2);
    assert.deepEqual(groups.map((g) => g.weight), [9, 9]);
    assert.deepEqual(groupByWeight([{ source: 'x', weight: 1 }], 8).length, 1);
  });
});
