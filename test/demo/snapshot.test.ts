// The demo snapshot's rules that need no `npm start` (test/main/demoSnapshot.test.ts has those):
// what its keys cover, when its chain part is rebuilt (missing, stale, cut short, aged: the rebuild
// that follows is demoSnapshot.test.ts's and npmStart.test.ts's), when its database part cannot be
// used (the re-index that follows is demoSnapshot.test.ts's), and a snapshot hours old caught up
// to the wall clock with the last 24 h as dense as on a fresh start, live trading going on from its head.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { anvilBinary } from '../../src/demo/anvil.ts';
import { openDemo } from '../../src/demo/openDemo.ts';
import { openDatabaseSnapshot, openSnapshotChain, type SnapshotChain } from '../../src/demo/snapshot.ts';
import { DEFAULT_SEED } from '../../src/demo/simulate.ts';
import { CHAIN_KEY_PATHS, DATABASE_KEY_PATHS, chainKey, databaseKey, repoRoot } from '../../src/demo/snapshotKeys.ts';

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('demo snapshot keys', () => {
  /** A copy of what the keys read, in a directory of its own, to add files to. */
  const copyOfKeyedFiles = () => {
    const root = tempDir('keyed');
    for (const path of new Set([...CHAIN_KEY_PATHS, ...DATABASE_KEY_PATHS])) cpSync(join(repoRoot, path), join(root, path), { recursive: true });
    return root;
  };

  it('the chain key covers every contract and every file of src/demo, new ones included, the seed and the node', () => {
    const root = copyOfKeyedFiles();
    const inputs = { seed: 1, node: 'anvil 1.7.1' };
    const key = chainKey(inputs, root);
    assert.equal(chainKey(inputs, root), key, 'the same inputs, the same key');
    assert.equal(chainKey(inputs, repoRoot), key, 'the key of the files, not of where they are');
    assert.notEqual(chainKey({ ...inputs, seed: 2 }, root), key);
    assert.notEqual(chainKey({ ...inputs, node: 'anvil 1.7.2' }, root), key);
    // What a new DEX family brings (issue 33: a PoolManager): a contract, its artifact, demo code.
    for (const file of ['contracts/v4/PoolManager.sol', 'generated/contracts/PoolManager.json', 'src/demo/seedV4Pools.ts']) {
      const before = chainKey(inputs, root);
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), '// new\n');
      assert.notEqual(chainKey(inputs, root), before, `${file} changes the chain key`);
    }
  });

  it('the database key covers the chain key, the migrations, the indexer and what it reads through, and its configuration', () => {
    const root = copyOfKeyedFiles();
    const key = databaseKey('chain-a', { batchSize: 500 }, root);
    assert.notEqual(databaseKey('chain-b', { batchSize: 500 }, root), key);
    assert.notEqual(databaseKey('chain-a', { batchSize: 100 }, root), key);
    for (const file of ['src/db/migrations/9999_new.sql', 'src/indexer/newStep.ts', 'src/chain/newRead.ts', 'config/circulating/demo.json']) {
      const before = databaseKey('chain-a', { batchSize: 500 }, root);
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), `-- ${file}\n`, { flag: 'a' });
      assert.notEqual(databaseKey('chain-a', { batchSize: 500 }, root), before, `${file} changes the database key`);
    }
  });
});

describe("a demo snapshot's database part", () => {
  const INPUTS = { batchSize: 500 };
  /** What openDatabaseSnapshot reads of the chain part: its key, its head and where it came from. */
  const chainPart = (source: 'loaded' | 'built' = 'loaded') => ({ key: 'chain-key', head: { hash: '0xhead', number: 7, timestamp: 1 }, source }) as unknown as SnapshotChain;
  /** A directory holding a database part saved by openDatabaseSnapshot itself. */
  async function saved(): Promise<string> {
    const dir = tempDir('db-part');
    await openDatabaseSnapshot(chainPart(), INPUTS, { dir }).save(new Blob([gzipSync(Buffer.from('a tarball'))]));
    return dir;
  }
  const open = (dir: string, source: 'loaded' | 'built' = 'loaded') => {
    const lines: string[] = [];
    const part = openDatabaseSnapshot(chainPart(source), INPUTS, { dir, log: (m) => void lines.push(m) });
    return { part, lines };
  };
  const meta = (dir: string) => JSON.parse(readFileSync(join(dir, 'db.meta.json'), 'utf8')) as Record<string, unknown>;

  it('one it saved is used as it is: its tarball, no line', async () => {
    const { part, lines } = open(await saved());
    assert.equal(part.reason, undefined);
    assert.equal(Buffer.from(await part.dump!.arrayBuffer()).toString(), 'a tarball');
    assert.deepEqual(lines, []);
  });

  it('one that cannot be used is not: the reason, and one line saying the chain snapshot is re-indexed', async () => {
    const cases: [string, (dir: string) => void, RegExp][] = [
      ['missing', (dir) => rmSync(join(dir, 'db.meta.json')), /^missing$/],
      ['corrupt metadata', (dir) => writeFileSync(join(dir, 'db.meta.json'), '{"key":'), /^corrupt \(db\.meta\.json: .+\)$/],
      ['made for another chain', (dir) => writeFileSync(join(dir, 'db.meta.json'), JSON.stringify({ ...meta(dir), chainHead: '0xother' })), /^made for another chain snapshot$/],
      ['another key', (dir) => writeFileSync(join(dir, 'db.meta.json'), JSON.stringify({ ...meta(dir), key: 'another-indexer' })), /^stale \(key another-indexer, now \w+: .*\)$/],
      ['cut short', (dir) => writeFileSync(join(dir, 'db.tar.gz'), 'short'), /^corrupt \(db\.tar\.gz is 5 bytes, \d+ written\)$/],
      // The same size, other bytes: only gzip's own check tells (PGlite handed it ends the process).
      ['same size, not gzip', (dir) => writeFileSync(join(dir, 'db.tar.gz'), Buffer.alloc(statSync(join(dir, 'db.tar.gz')).size, 7)), /^corrupt \(db\.tar\.gz: incorrect header check\)$/],
    ];
    for (const [name, spoil, reason] of cases) {
      const dir = await saved();
      spoil(dir);
      const { part, lines } = open(dir);
      assert.equal(part.dump, undefined, name);
      assert.match(part.reason ?? '', reason, name);
      assert.deepEqual(lines, [`demo database snapshot ${part.reason}: re-indexing the demo chain snapshot and saving it`], name);
    }
  });

  it('a chain just built has none yet, and that needs no line of its own', () => {
    const { part, lines } = open(tempDir('db-part-empty'), 'built');
    assert.equal(part.reason, 'missing');
    assert.deepEqual(lines, []);
  });
});

describe("a demo snapshot's chain part", () => {
  // What openSnapshotChain makes of the chain part, given what `npm start` gives it (main.ts: no
  // clock, no limit): loaded, or rebuilt with one line saying why. Given a host its node cannot
  // listen on, it shows which without building anything: a load fails there as a corrupt state does
  // (then it is rebuilt, as corrupt), and a rebuild stops at its builder's start, right after its
  // line. The whole rebuild and re-index after each line are the starts' of test/main/.
  const key = chainKey({ seed: DEFAULT_SEED, node: `anvil ${anvilBinary().version}` });
  /** A chain part as buildChain writes it, for the current key, its head `ageSec` behind the wall clock. */
  function chainPart(ageSec: number): string {
    const dir = tempDir('chain-part');
    writeFileSync(join(dir, 'chain.json'), Buffer.alloc(100, '{'));
    const head = { number: 9, hash: `0x${'9'.repeat(64)}`, timestamp: Math.floor(Date.now() / 1000) - ageSec };
    writeFileSync(join(dir, 'chain.meta.json'), JSON.stringify({ key, stateBytes: 100, head, deployment: { chainId: 59144 } }));
    return dir;
  }
  const chainMeta = (dir: string) => JSON.parse(readFileSync(join(dir, 'chain.meta.json'), 'utf8')) as Record<string, unknown>;
  /** The lines openSnapshotChain logs for the chain part in `dir` (on the unusable host). */
  async function linesFor(dir: string, seed?: number): Promise<string[]> {
    const lines: string[] = [];
    await assert.rejects(openSnapshotChain({ dir, seed, host: '256.0.0.1', log: (m) => void lines.push(m) }), /anvil exited/);
    return lines;
  }
  const rebuilt = (reason: string) => `demo snapshot ${reason}: building the demo chain and saving it`;
  const LOAD_FAILED = /^demo snapshot corrupt \(anvil exited .*\): building the demo chain and saving it$/;

  it('one up to 6 h behind the wall clock is loaded (then caught up); one older is rebuilt, its one line saying how old', async () => {
    for (const hours of [0, 3, 5.9]) {
      const lines = await linesFor(chainPart(hours * 3600));
      assert.equal(lines.length, 1, `${hours} h: ${lines.join('\n')}`);
      assert.match(lines[0]!, LOAD_FAILED, `${hours} h: loaded (its load failed on the host)`);
    }
    for (const [hours, shown] of [[6.2, '6.2'], [7, '7.0'], [30, '30.0']] as const) {
      assert.deepEqual(await linesFor(chainPart(hours * 3600)), [rebuilt(`aged (its head is ${shown} h behind the wall clock; at most 6 h is caught up)`)], `${hours} h`);
    }
  });

  it('one of the written size that is not a state: its node exits on a real host, and it is rebuilt as corrupt (one line)', async () => {
    // The build that follows is stopped at its start; the rest of a rebuild (build, index, both
    // parts saved, head at the wall clock) is the no-snapshot start's, test/main/npmStart.test.ts.
    const lines: string[] = [];
    const stop = new Error('build stopped by the test');
    const opened = openSnapshotChain({ dir: chainPart(0), host: '127.0.0.1', log: (m) => void lines.push(m), onBuild: () => { throw stop; } });
    await assert.rejects(opened, (error) => error === stop);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, LOAD_FAILED);
  });

  it('one missing, stale or cut short is rebuilt, its one line saying why', async () => {
    const cases: [string, (dir: string) => void, RegExp][] = [
      ['missing', (dir) => rmSync(join(dir, 'chain.meta.json')), /^missing$/],
      ['corrupt metadata', (dir) => writeFileSync(join(dir, 'chain.meta.json'), '{"key":'), /^corrupt \(chain\.meta\.json: .+\)$/],
      ['another key', (dir) => writeFileSync(join(dir, 'chain.meta.json'), JSON.stringify({ ...chainMeta(dir), key: 'another-chain' })), /^stale \(key another-chain, now \w+: the contracts, src\/demo, the seed or the node changed\)$/],
      ['cut short', (dir) => writeFileSync(join(dir, 'chain.json'), '{}'), /^corrupt \(chain\.json is 2 bytes, 100 written\)$/],
      ['state gone', (dir) => rmSync(join(dir, 'chain.json')), /^corrupt \(chain\.json is missing bytes, 100 written\)$/],
    ];
    for (const [name, spoil, reason] of cases) {
      const dir = chainPart(0);
      spoil(dir);
      const lines = await linesFor(dir);
      assert.equal(lines.length, 1, `${name}: ${lines.join('\n')}`);
      const why = /^demo snapshot (.*): building the demo chain and saving it$/.exec(lines[0]!)?.[1] ?? lines[0]!;
      assert.match(why, reason, name);
    }
    // Another seed is another chain: the key covers it.
    const [line] = await linesFor(chainPart(0), DEFAULT_SEED + 1);
    assert.match(line!, /^demo snapshot stale \(key \w+, now \w+: /);
  });
});

describe('a demo snapshot 3 hours old', () => {
  it('is loaded and caught up: the head at the wall clock, the last 24 h as dense as the history, live trading from the head', async (t) => {
    const dir = join(tempDir('aged-snapshot'), 'snapshot');
    const lines: string[] = [];
    const log = (message: string) => void lines.push(message);
    const threeHoursAgo = () => Date.now() - 3 * 3600_000;
    // Made 3 hours ago (its clock then): a history ending then.
    const made = await openDemo({ dir, seed: 7, log, now: threeHoursAgo });
    assert.equal(made.snapshot.source, 'built');
    await made.stop();
    assert.deepEqual(lines, ['demo snapshot missing: building the demo chain and saving it']);

    const demo = await openDemo({ dir, seed: 7, log });
    try {
      assert.equal(demo.snapshot.source, 'loaded');
      assert.equal(lines.length, 1, 'loaded, not rebuilt');
      const headBefore = demo.snapshot.head;
      assert.ok(Date.now() / 1000 - headBefore.timestamp > 2.9 * 3600, 'the snapshot head is 3 h old');
      const caughtUp = await demo.catchUp();
      t.diagnostic(`caught up ${caughtUp.blocks} blocks (${caughtUp.swaps} swaps) in ${caughtUp.durationMs} ms`);
      assert.ok(caughtUp.blocks >= (3 * 3600) / 750 && caughtUp.swaps > caughtUp.blocks, 'the market traded on through the 3 hours');
      const request = <T>(method: string, params: unknown[]) => demo.chain.provider.request({ method, params }) as Promise<T>;
      const block = (n: number | 'latest') => request<{ number: string; timestamp: string; transactions: string[] }>('eth_getBlockByNumber', [n === 'latest' ? n : `0x${n.toString(16)}`, false]);
      const head = await block('latest');
      const nowSec = Date.now() / 1000;
      assert.ok(Math.abs(nowSec - Number(head.timestamp)) <= 60, `head ${Number(head.timestamp)} within 60 s of the wall clock`);
      // The history's fine part has a block every 450-750 s: so do the last 24 h, caught up included.
      const timestamps: number[] = [];
      for (let n = Number(head.number); n > 0; n--) {
        const b = await block(n);
        if (Number(b.timestamp) < nowSec - 24 * 3600) break;
        timestamps.push(Number(b.timestamp));
      }
      const gaps = timestamps.slice(1).map((ts, i) => timestamps[i]! - ts);
      assert.ok(timestamps.length >= (24 * 3600) / 750, `${timestamps.length} blocks in the last 24 h`);
      assert.ok(Math.max(...gaps) <= 750, `largest gap ${Math.max(...gaps)} s`);
      // Live trading continues from the head, on the wall clock.
      await demo.startLive({ intervalMs: 200 });
      for (let i = 0; i < 100 && Number((await block('latest')).number) === Number(head.number); i++) await new Promise((r) => setTimeout(r, 50));
      const live = await block('latest');
      assert.equal(Number(live.number), Number(head.number) + 1, 'one live block on the head');
      assert.ok(Number(live.timestamp) >= Number(head.timestamp) && Math.abs(Date.now() / 1000 - Number(live.timestamp)) <= 60);
    } finally {
      await demo.stop();
    }
  });
});
