import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { readNodeScript, type NodeScript } from '../../scripts/nodeScript.ts';

const dir = mkdtempSync(join(tmpdir(), 'node-script-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const read = (script: string) => {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { x: script } }));
  return readNodeScript(dir, 'x');
};

describe('readNodeScript', () => {
  const cases: [string, string, NodeScript][] = [
    ['plain node', 'node --flag a.js serve', { prepare: [], env: {}, flags: ['--flag'], entry: 'a.js', args: ['serve'] }],
    ['build, env and exec', 'node b.mjs && A=1 B_2=x exec node --f1 --f2=3 dist/main.js index',
      { prepare: [['b.mjs']], env: { A: '1', B_2: 'x' }, flags: ['--f1', '--f2=3'], entry: 'dist/main.js', args: ['index'] }],
  ];
  for (const [name, script, expected] of cases) it(name, () => assert.deepEqual(read(script), expected));

  const refused: [string, string, RegExp][] = [
    ['not node', 'tsx a.ts', /should run node/],
    ['no entry point', 'node --flag', /no entry point/],
    ['env before the build', 'A=1 node b.mjs && node a.js', /only before the last command/],
  ];
  for (const [name, script, error] of refused) it(`refuses ${name}`, () => assert.throws(() => read(script), error));

  it("reads this project's serve script: compiled entry, its environment", () => {
    const serve = readNodeScript(resolve(import.meta.dirname, '..', '..'), 'serve');
    assert.equal(serve.entry, 'dist/main.js');
    assert.deepEqual(serve.args, ['serve']);
    assert.equal(serve.env.MALLOC_ARENA_MAX, '2');
    assert.equal(serve.env.MALLOC_MMAP_THRESHOLD_, '32768');
  });

  it('start and index map no small blocks: their batches would fault pages in on every allocation', () => {
    for (const name of ['start', 'index'] as const) {
      const script = readNodeScript(resolve(import.meta.dirname, '..', '..'), name);
      assert.equal(script.env.MALLOC_ARENA_MAX, '2', name);
      assert.equal(script.env.MALLOC_MMAP_THRESHOLD_, undefined, name);
    }
  });
});
