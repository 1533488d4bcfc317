// What `npm start` does with a demo snapshot that cannot be used as it is (src/demo/snapshot.ts):
// the run's snapshot (left by test/main/npmStart.test.ts in TEST_DEMO_SNAPSHOT_DIR) is copied
// into a directory of this test's own, then broken one way per start. A deleted snapshot is the
// first start of npmStart.test.ts (an empty directory: built, saved, one log line). Which database
// parts cannot be used (corrupt, cut short, made for another chain) is test/demo/snapshot.test.ts's:
// every one of them is re-indexed as the stale one here is. Which chain parts are rebuilt (missing,
// stale, cut short, more than 6 h behind the wall clock) is decided before anything starts:
// test/demo/snapshot.test.ts runs openSnapshotChain, with what `npm start` gives it, on each and
// checks its one line (the build it then begins is stopped at once), a chain part of the written
// size that is not a state included (its node exits on a real host). The whole path of a build
// (the line, the build, the index, the head at the wall clock, both parts saved) is the first
// start of npmStart.test.ts.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anvilBinary } from '../../src/demo/anvil.ts';
import { DEFAULT_SEED } from '../../src/demo/simulate.ts';
import { chainKey } from '../../src/demo/snapshotKeys.ts';
import { headOf, npmStart, runSnapshotDir, snapshotLines, type Started } from '../helpers/demoStart.ts';
import { stopMain } from '../helpers/mainProcess.ts';

const root = mkdtempSync(join(tmpdir(), 'demo-snapshot-test-'));
let copies = 0;
/** A copy of the run's snapshot (made by a start when this file runs alone). */
function copyOfRunSnapshot(): string {
  const dir = join(root, `copy-${++copies}`);
  cpSync(runSnapshotDir, dir, { recursive: true });
  return dir;
}
const readMeta = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown> & { head: { hash: string; number: number; timestamp: number } };

async function headWithinAMinute(started: Started) {
  const head = await headOf(started);
  assert.ok(Math.abs(Date.now() / 1000 - head.timestamp) <= 60, `head ${head.timestamp} within 60 s of the wall clock`);
}

async function tokensServed(started: Started) {
  const list = (await (await fetch(`${started.url}/tokens?limit=100`)).json()) as { data: { currentPrice: number | null; info: { swaps: number } }[] };
  assert.ok(list.data.filter((t) => t.currentPrice !== null).length >= 8, 'priced tokens');
  assert.ok(list.data.some((t) => t.info.swaps > 0), 'swaps counted');
}

describe('npm start with a demo snapshot it cannot use as it is', () => {
  const running: Started[] = [];
  before(async () => {
    // Made by npmStart.test.ts in a whole run; this file alone (or after src/demo changed) makes it.
    const key = chainKey({ seed: DEFAULT_SEED, node: `anvil ${anvilBinary().version}` });
    if (existsSync(join(runSnapshotDir, 'db.meta.json')) && readMeta(runSnapshotDir, 'chain.meta.json').key === key) return;
    running.push(await npmStart(runSnapshotDir));
    await stopMain(running.pop()!.main);
  });
  after(async () => {
    for (const s of running) await stopMain(s.main);
    rmSync(root, { recursive: true, force: true });
  });

  it('only the database key differs: loads the chain, re-indexes it, saves the database part again (one log line)', async () => {
    const dir = copyOfRunSnapshot();
    const chainBefore = readMeta(dir, 'chain.meta.json');
    writeFileSync(join(dir, 'db.meta.json'), JSON.stringify({ ...readMeta(dir, 'db.meta.json'), key: 'another-indexer' }));
    const started = await npmStart(dir);
    running.push(started);
    assert.equal(started.banner.demoSnapshot, 'loaded');
    const lines = snapshotLines(started.main.output());
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /^demo database snapshot stale \(key another-indexer, now \w+: .*\): re-indexing the demo chain snapshot and saving it$/);
    await headWithinAMinute(started);
    await tokensServed(started);
    await stopMain(started.main);
    assert.deepEqual(readMeta(dir, 'chain.meta.json'), chainBefore, 'the chain part kept');
    const db = readMeta(dir, 'db.meta.json');
    assert.notEqual(db.key, 'another-indexer', 'the database part saved under the current key');
    assert.equal(db.chainHead, chainBefore.head.hash);
  });
});
