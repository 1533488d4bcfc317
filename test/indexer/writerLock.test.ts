// One writer per PostgreSQL database: a second indexer waits as a standby (saying so), takes over
// when the writer stops or is cut off, reloads what the writer stored, and the index equals an
// uninterrupted one. The old code let both write: each kept pool state in memory, and the one
// behind wrote prices from stale reserves. And an indexer cut off by a partition stops writing,
// logs it, and catches up once the database is back (the old code froze without a word).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChainClient, type ChainClient } from '../../src/chain/index.ts';
import type { IndexerConfig } from '../../src/config/indexerConfig.ts';
import { createDatabase, type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { createIndexer, type Indexer } from '../../src/indexer/index.ts';
import { openProxiedPostgres, type ProxiedPostgres } from '../helpers/proxiedPostgres.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/services.ts';
import { openScratchPostgres } from '../helpers/testDatabases.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';
import { createWorld, type World } from './helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;

type Logged = { level: string; msg: string };
function recordingLogger(into: Logged[]) {
  const at = (level: string) => (_obj: object, msg?: string) => void into.push({ level, msg: msg ?? '' });
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: () => {} };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - started;
}

describe('one indexer writes, another stands by (PostgreSQL)', { skip: skipWithoutPostgres }, () => {
  let world: World;
  let client: ChainClient;
  let config: IndexerConfig;
  let expected: Awaited<ReturnType<typeof snapshotDb>>;
  before(async () => {
    world = await createWorld();
    client = createChainClient({ url: world.chain.url });
    const usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 12n * e6);
    const weth = await world.token('Wrapped Ether', 'WETH', 18, 10n ** 6n * e18);
    const tka = await world.token('Token A', 'TKA', 18, 10n ** 6n * e18);
    const usdcWeth = await world.v2Pair(usdc, weth, 300_000n * e6, 100n * e18);
    const tkaWeth = await world.v2Pair(tka, weth, 10_000n * e18, 20n * e18);
    let time = (await world.latest()).timestamp;
    for (let i = 0; i < 16; i++) {
      time += 1800;
      await world.rpc('evm_setNextBlockTimestamp', [time]);
      await world.v2Swap(i % 2 ? tkaWeth : usdcWeth, i % 3 ? weth : i % 2 ? tka : usdc, i % 3 ? e18 / 4n : i % 2 ? 100n * e18 : 500n * e6);
    }
    const addr = async (c: { getAddress(): Promise<string> }) => (await c.getAddress()).toLowerCase();
    config = world.config({
      factories: { v2: [await addr(world.v2Factory)] }, stablecoins: [await addr(usdc)], wrappedNative: await addr(weth),
      batchSize: 3, pollIntervalMs: 50, standbyPollMs: 200,
    });
    const straight = await openPglite();
    await runToHead(createIndexer({ db: straight, chain: client, config }));
    expected = await snapshotDb(straight, { withUpdatedAt: true });
    await straight.close();
  });
  after(async () => {
    client?.destroy();
    await world?.stop();
  });

  const stopAll = (...indexers: Indexer[]) => Promise.all(indexers.map((i) => i.stop()));

  it('two indexers stepping in turn on one database: the second stands by, the data is the uninterrupted index; the writer vacuums where autovacuum is off', async () => {
    const db = await openScratchPostgres(TEST_DATABASE_URL!, 'lock');
    const log: Logged[] = [];
    const writerLog: Logged[] = [];
    const a = createIndexer({ db, chain: client, config: { ...config, vacuumEveryBlocks: 3 }, logger: recordingLogger(writerLog) });
    const b = createIndexer({ db, chain: client, config, logger: recordingLogger(log) });
    try {
      let done = false;
      for (let i = 0; i < 200 && !done; i++) {
        const ra = await a.syncOnce();
        const rb = await b.syncOnce();
        assert.equal(rb.batch, null, 'the standby never writes');
        done = ra.caughtUp;
      }
      assert.equal(a.status().role, 'leader');
      assert.equal(b.status().role, 'standby');
      assert.ok(log.some((l) => /standby: another indexer holds the writer lock/.test(l.msg)), 'the standby says so');
      const got = await snapshotDb(db, { withUpdatedAt: true });
      assert.deepEqual(got.pricePoints, expected.pricePoints);
      assert.deepEqual(got.tokens, expected.tokens);
      assert.deepEqual(got.swaps, expected.swaps);
      assert.deepEqual(got.candles, expected.candles);
      await a.stop(); // a vacuum still running ends first
      const [server] = await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
      const vacuums = await db.query<{ table: string; n: string }>(
        `SELECT relname AS table, vacuum_count::text AS n FROM pg_stat_user_tables WHERE relid IN ('tokens'::regclass, 'candles'::regclass, 'pools'::regclass)`);
      assert.equal(vacuums.length, 3);
      for (const { table, n } of vacuums) assert.equal(Number(n) > 0, !server!.on, `${table} vacuumed ${n} times, the server's autovacuum ${server!.on ? 'on' : 'off'}`);
      assert.equal(writerLog.some((l) => /autovacuum is off on this server/.test(l.msg)), !server!.on);
    } finally {
      await stopAll(a, b);
      await db.close();
    }
  });

  it('the standby takes over within a second of the writer stopping mid-backfill, and finishes the same index', async () => {
    const db = await openScratchPostgres(TEST_DATABASE_URL!, 'lock');
    const a = createIndexer({ db, chain: client, config: { ...config, pollIntervalMs: 50 } });
    const b = createIndexer({ db, chain: client, config });
    try {
      for (let i = 0; i < 3; i++) await a.syncOnce();
      await b.start();
      await waitFor('standby', () => b.status().role === 'standby', 5000);
      const stoppedAt = performance.now();
      await a.stop();
      const takeover = await waitFor('takeover', () => b.status().role === 'leader', 5000);
      process.stdout.write(`# takeover ${Math.round(performance.now() - stoppedAt)} ms after the writer stopped\n`);
      assert.ok(takeover < 1500, `took over after ${Math.round(takeover)} ms`);
      const head = (await world.latest()).number;
      await waitFor('caught up', () => b.status().indexedBlock === head, 20_000);
      const got = await snapshotDb(db, { withUpdatedAt: true });
      assert.deepEqual(got.pricePoints, expected.pricePoints);
      assert.deepEqual(got.tokens, expected.tokens);
      assert.deepEqual(got.candles, expected.candles, 'candles rolled up by two writers in turn');
    } finally {
      await stopAll(a, b);
      await db.close();
    }
  });

  it('a writer cut off by a partition stops writing and says so; the standby takes over; both catch up after', async () => {
    const cut: ProxiedPostgres = await openProxiedPostgres(TEST_DATABASE_URL!);
    const schema = (await cut.db.query<{ s: string }>('SELECT current_schema() AS s'))[0]!.s;
    const db = await createDatabase({ databaseUrl: TEST_DATABASE_URL!, schema });
    const log: Logged[] = [];
    const a = createIndexer({ db: cut.db, chain: client, config, logger: recordingLogger(log) });
    const b = createIndexer({ db, chain: client, config });
    try {
      for (let i = 0; i < 2; i++) await a.syncOnce();
      await b.start();
      await waitFor('standby', () => b.status().role === 'standby', 5000);
      await a.start();
      await cut.proxy.setMode('partition');
      const cutAt = performance.now();
      await waitFor('the writer notices', () => a.status().role === 'standby', 5000);
      assert.ok(log.some((l) => l.level === 'error' && /lost the writer lock/.test(l.msg)), 'logged');
      const lostMs = performance.now() - cutAt;
      await waitFor('takeover', () => b.status().role === 'leader', 10_000);
      const takeoverMs = performance.now() - cutAt;
      process.stdout.write(`# partitioned writer: lost the lock after ${Math.round(lostMs)} ms, standby took over after ${Math.round(takeoverMs)} ms\n`);
      const head = (await world.latest()).number;
      await waitFor('caught up', () => b.status().indexedBlock === head, 20_000);
      await cut.proxy.setMode('pass');
      // The cut-off writer comes back as a standby: it steps without error and never writes.
      await waitFor('a steps again', () => a.status().consecutiveErrors === 0 && a.status().role === 'standby', 15_000);
      const got = await snapshotDb(db, { withUpdatedAt: true });
      assert.deepEqual(got.pricePoints, expected.pricePoints);
      assert.deepEqual(got.tokens, expected.tokens);
      assert.deepEqual(got.swaps, expected.swaps);
    } finally {
      await cut.proxy.setMode('pass');
      await stopAll(a, b);
      await db.close();
      await cut.close();
    }
  });

  it('a lone indexer partitioned from its database logs the fault, retries, and catches up after', async () => {
    const cut = await openProxiedPostgres(TEST_DATABASE_URL!);
    const log: Logged[] = [];
    const a = createIndexer({ db: cut.db, chain: client, config, logger: recordingLogger(log) });
    try {
      for (let i = 0; i < 2; i++) await a.syncOnce();
      await a.start();
      await cut.proxy.setMode('partition');
      await waitFor('the fault is logged', () => log.some((l) => l.level === 'error'), 10_000);
      await new Promise((r) => setTimeout(r, 500));
      await cut.proxy.setMode('pass');
      const healed = performance.now();
      const head = (await world.latest()).number;
      await waitFor('caught up', () => a.status().indexedBlock === head, 20_000);
      process.stdout.write(`# lone indexer: caught up ${Math.round(performance.now() - healed)} ms after the partition ended\n`);
      const got = await snapshotDb(cut.db, { withUpdatedAt: true });
      assert.deepEqual(got.pricePoints, expected.pricePoints);
      assert.deepEqual(got.tokens, expected.tokens);
    } finally {
      await cut.proxy.setMode('pass');
      await a.stop();
      await cut.close();
    }
  });
});
