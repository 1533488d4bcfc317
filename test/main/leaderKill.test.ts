// Two real indexer processes (`npm run index`'s build and command) on one PostgreSQL schema and
// the demo chain: one writes, the other stands by; kill -9 the writer mid-backfill and the
// standby takes over within seconds and finishes an index identical to an uninterrupted one.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createChainClient } from '../../src/chain/index.ts';
import { type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { startDemo, type Demo } from '../../src/demo/index.ts';
import { indexerConfigFromDemo } from '../../src/demo/indexerConfigFromDemo.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { readNodeScript } from '../../scripts/nodeScript.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/services.ts';
import { openScratchPostgres } from '../helpers/testDatabases.ts';
import { runToHead } from '../indexer/helpers/runToHead.ts';
import { snapshotDb } from '../indexer/helpers/snapshotDb.ts';

const root = resolve(import.meta.dirname, '..', '..');
/** Small batches and a request cap: the backfill lasts long enough to be interrupted. */
const BATCH_SIZE = 3;
const REQUESTS_PER_SECOND = 60;

type Started = { child: ChildProcess; output: () => string; exit: Promise<number | null> };

describe('leader kill: two indexer processes on one PostgreSQL', { skip: skipWithoutPostgres }, () => {
  let demo: Demo;
  let db: Database;
  let dbUrl: string;
  const started: Started[] = [];
  before(async () => {
    const script = readNodeScript(root, 'index');
    for (const args of script.prepare) {
      const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
      assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    }
    demo = await startDemo({ hours: 6, live: false, port: 0, host: '127.0.0.1' });
    db = await openScratchPostgres(TEST_DATABASE_URL!, 'kill');
    const schema = (await db.query<{ s: string }>('SELECT current_schema() AS s'))[0]!.s;
    const url = new URL(TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    dbUrl = url.toString();
  });
  after(async () => {
    for (const s of started) s.child.kill('SIGKILL');
    await db?.close();
    await demo?.stop();
  });

  function startIndexer(name: string): Started {
    const script = readNodeScript(root, 'index');
    const d = demo.deployment;
    const child = spawn(process.execPath, [...script.flags, script.entry, ...script.args], {
      cwd: root,
      env: {
        PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'info', ...script.env,
        DATABASE_URL: dbUrl, CHAIN_RPC_URL: demo.chain.url,
        INDEXER_CHAIN_ID: String(d.chainId), INDEXER_START_BLOCK: String(d.startBlock), INDEXER_BATCH_SIZE: String(BATCH_SIZE),
        INDEXER_V2_FACTORIES: d.v2Factories.join(','), INDEXER_V3_FACTORIES: d.v3Factories.join(','),
        // every family the demo deploys, as the uninterrupted index below reads them
        INDEXER_SOLIDLY_FACTORIES: d.familyFactories.solidly, INDEXER_PANCAKE_V3_FACTORIES: d.familyFactories.pancakeV3,
        INDEXER_ALGEBRA_FACTORIES: d.familyFactories.algebra, INDEXER_SYNCSWAP_CLASSIC_FACTORIES: d.familyFactories.syncSwapClassic,
        INDEXER_SYNCSWAP_STABLE_FACTORIES: d.familyFactories.syncSwapStable, INDEXER_V4_FACTORIES: d.familyFactories.uniswapV4,
        INDEXER_STABLECOINS: d.stablecoins.join(','), INDEXER_WRAPPED_NATIVE: d.weth, INDEXER_MULTICALL3: d.multicall3,
        // the demo's ETH/USD feed anchors WETH, as in the uninterrupted index's demo configuration
        INDEXER_USD_FEED: d.usdFeed,
        // Each indexer's status port (/healthz, /readyz, /metrics) on a free port of its own.
        PORT: '0', HOST: '127.0.0.1',
        INDEXER_POLL_INTERVAL_MS: '200', INDEXER_STANDBY_POLL_MS: '250', CHAIN_RPC_REQUESTS_PER_SECOND: String(REQUESTS_PER_SECOND),
        // Contract checks read the head whenever a round runs: off, so the two indexes can be compared row for row.
        INDEXER_CONTRACT_CHECK_MAX_CALLS: '0',
        // Forward from the start block, as the uninterrupted index it is compared with (head-first is tested in test/indexer/headFirst.test.ts).
        INDEXER_BOOTSTRAP: 'forward',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout?.on('data', (c) => (text += c));
    child.stderr?.on('data', (c) => (text += c));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const s = { child, output: () => text, exit, name };
    started.push(s);
    return s;
  }

  async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${started.map((s) => s.output()).join('\n---\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const checkpoint = async () => {
    const rows = await db.query<{ n: number }>(`SELECT block_number AS n FROM indexer_checkpoint WHERE id = 1`);
    return rows[0] ? Number(rows[0].n) : null;
  };

  it('kill -9 of the writer mid-backfill: the standby takes over within seconds, the index equals an uninterrupted one', async () => {
    const a = startIndexer('a');
    const b = startIndexer('b');
    const leads = (s: Started) => /writer lock: indexing/.test(s.output());
    const waits = (s: Started) => /standby: another indexer holds the writer lock/.test(s.output());
    const [leader, standby] = await until('one writer, one standby', () => (leads(a) && waits(b) ? [a, b] : leads(b) && waits(a) ? [b, a] : undefined), 60_000);
    const { fromBlock, toBlock } = demo.history;
    const killAt = fromBlock + Math.floor((toBlock - fromBlock) / 3);
    await until('mid-backfill', async () => ((await checkpoint()) ?? -1) >= killAt || undefined, 60_000);
    const before = (await checkpoint())!;
    assert.ok(before < toBlock, `killed mid-backfill (checkpoint ${before} of ${toBlock})`);
    leader.child.kill('SIGKILL');
    const killedAt = Date.now();
    await leader.exit;
    await until('takeover', () => /took over the writer lock/.test(standby.output()) || undefined, 15_000);
    const takeoverMs = Date.now() - killedAt;
    await until('progress after the kill', async () => ((await checkpoint()) ?? -1) > before || undefined, 15_000);
    await until('caught up', async () => ((await checkpoint()) ?? -1) >= toBlock || undefined, 60_000);
    process.stdout.write(`# leader killed at block ${before} of ${toBlock}; standby took over ${takeoverMs} ms after the kill\n`);
    assert.ok(takeoverMs < 5000, `takeover after ${takeoverMs} ms`);
    standby.child.kill('SIGTERM');
    await standby.exit;

    // The uninterrupted index of the same chain with the same configuration, in one process.
    const straight = await openPglite();
    const chain = createChainClient({ url: demo.chain.url });
    try {
      await runToHead(createIndexer({ db: straight, chain, config: indexerConfigFromDemo(demo.deployment, { batchSize: BATCH_SIZE, contractCheckMaxCalls: 0 }) }));
      const want = await snapshotDb(straight, { withUpdatedAt: true });
      const got = await snapshotDb(db, { withUpdatedAt: true });
      assert.ok(want.swaps.length > 100, `${want.swaps.length} swaps`);
      assert.deepEqual(got.swaps, want.swaps);
      assert.deepEqual(got.pricePoints, want.pricePoints);
      assert.deepEqual(got.tokens, want.tokens);
    } finally {
      chain.destroy();
      await straight.close();
    }
  });
});
