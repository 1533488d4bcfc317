// A feed round writes tens of thousands of rows in chunked statements. Each writer sends all of its
// chunks before it awaits the first answer, so that one connection runs them back to back while the
// indexer's JavaScript goes on (writeBatch builds token rows while candles are written); and rows
// are built in slices that give the event loop back, so that a connection can start the next
// statement it was sent as soon as one finishes. A writer that awaited chunk by chunk, or a build
// that held the event loop, fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Queryable, SqlParam } from '../../src/db/index.ts';
import { rollupCandles, upsertPools, upsertTokens, type PoolWrite, type TokenWrite } from '../../src/db/index.ts';
import { buildInSlices } from '../../src/indexer/yieldEvery.ts';
import { testDatabases } from '../helpers/testDatabases.ts';

/** A connection that answers nothing until released: what was sent before any answer is counted. */
function heldConnection(answer: (sql: string, params: readonly SqlParam[]) => unknown[]) {
  const sent: string[] = [];
  const held: (() => void)[] = [];
  const db: Queryable = {
    query: <T,>(sql: string, params: readonly SqlParam[] = []) => {
      sent.push(sql);
      return new Promise<T[]>((resolve) => held.push(() => resolve(answer(sql, params) as T[])));
    },
    exec: async () => {},
  };
  const releaseAll = async () => {
    while (held.length > 0) {
      held.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { db, sent, releaseAll };
}

const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
const tick = () => new Promise((r) => setImmediate(r));

test('upsertTokens sends every 500-token chunk before the first answer', async () => {
  const { db, sent, releaseAll } = heldConnection(() => []);
  const at = new Date('2026-01-01T00:00:00Z');
  const tokens: TokenWrite[] = Array.from({ length: 1_200 }, (_, i) => ({
    address: address(i + 1), name: `T${i}`, symbol: `T${i}`, decimals: 18, totalSupply: 1n, firstSeenAt: at, at,
  }));
  const done = upsertTokens(db, tokens);
  await tick();
  assert.equal(sent.filter((sql) => sql.includes('INSERT INTO tokens')).length, 3);
  await releaseAll();
  await done;
  assert.ok(sent.some((sql) => sql.includes('UPDATE data_version')), 'the data version is bumped after the rows');
});

test('upsertPools sends every 500-pool chunk before the first answer, then stamps the changed pools\' tokens', async () => {
  const { db, sent, releaseAll } = heldConnection((sql, params) => (sql.includes('INSERT INTO pools') ? (params[0] as string[]).map((a) => ({ address: a })) : []));
  const pools: PoolWrite[] = Array.from({ length: 1_100 }, (_, i) => ({
    address: address(i + 1), dex: address(9_999), family: 'uniswap-v2', fee: null, stable: null, hooks: null, priceSourceExclusion: null,
    token0Native: false, token0: address(10_001), token0Symbol: 'A', token1: address(10_002), token1Symbol: 'B', liquidity: '1', price: '1', createdBlock: 1,
  }));
  const done = upsertPools(db, pools);
  await tick();
  assert.equal(sent.filter((sql) => sql.includes('INSERT INTO pools')).length, 3);
  await releaseAll();
  assert.equal(await done, 1_100);
  assert.ok(sent.some((sql) => sql.includes('UPDATE tokens SET row_version')));
});

test('rollupCandles sends every chunk of single prices (a feed round) before the first answer', async () => {
  const { db, sent, releaseAll } = heldConnection((sql, params) => (sql.includes('INSERT INTO candles') ? [{ n: String((params[0] as string[]).length * 5) }] : []));
  const prices = Array.from({ length: 4_500 }, (_, i) => ({ token: address(i + 1), price: '1.5', observedAt: new Date('2026-01-01T00:00:00Z'), blockNumber: 7 }));
  const done = rollupCandles(db, prices, []);
  await tick();
  assert.equal(sent.filter((sql) => sql.includes('INSERT INTO candles')).length, 3);
  await releaseAll();
  assert.equal(await done, 4_500 * 5);
});

test('buildInSlices builds every row in order and gives the event loop back between 500-row slices', async () => {
  const order: string[] = [];
  const rows = await buildInSlices(Array.from({ length: 1_250 }, (_, i) => i), (slice) => {
    order.push(`slice ${slice[0]}`);
    setImmediate(() => order.push('turn')); // runs before the next slice only if the build yields
    return slice.map((i) => i * 2);
  });
  assert.deepEqual(rows, Array.from({ length: 1_250 }, (_, i) => i * 2));
  assert.deepEqual(order, ['slice 0', 'turn', 'slice 500', 'turn', 'slice 1000']);
});

for (const target of testDatabases) {
  test(`${target.name}: a transaction runs statements sent before any is awaited in the order sent, without pg's deprecation of concurrent queries; a failing one rolls all back`, { skip: target.skip }, async () => {
    const db = await target.openEmpty();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      await db.query(`CREATE TABLE sent_ahead (n int PRIMARY KEY, v int NOT NULL)`);
      const seen = await db.transaction(async (tx) => {
        const sent = [
          tx.query(`INSERT INTO sent_ahead SELECT g, 0 FROM generate_series(1, 2000) g`),
          tx.query(`UPDATE sent_ahead SET v = v + 1`),
          tx.query(`UPDATE sent_ahead SET v = v * 10`),
          tx.query<{ total: string }>(`SELECT sum(v)::text AS total FROM sent_ahead`),
        ];
        return (await Promise.all(sent))[3]![0]!.total;
      });
      assert.equal(seen, '20000'); // (0 + 1) × 10 for each of 2,000 rows: the updates ran after the insert, in order
      await assert.rejects(db.transaction(async (tx) => {
        const sent = [tx.query(`UPDATE sent_ahead SET v = 0`), tx.query(`INSERT INTO sent_ahead VALUES (1, 1)`), tx.query(`UPDATE sent_ahead SET v = 5`)];
        await Promise.all(sent);
      }), /duplicate key|sent_ahead_pkey/);
      const [after] = await db.query<{ total: string }>(`SELECT sum(v)::text AS total FROM sent_ahead`);
      assert.equal(after!.total, '20000');
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(warnings.filter((w) => /already executing a query/.test(w)), []);
    } finally {
      process.off('warning', onWarning);
      await db.close();
    }
  });
}
