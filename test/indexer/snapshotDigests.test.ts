// assertSameSnapshot (test/indexer/helpers/snapshotDb.ts) compares two databases by digests the
// databases compute, and falls back to the rows: it must pass exactly where deepEqual of
// snapshotDb's rows passes, and fail, showing the rows, where it fails.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { upsertTokens, type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { makeTokens } from '../helpers/tokenFixtures.ts';
import { assertSameSnapshot, snapshotDb } from './helpers/snapshotDb.ts';

let a: Database;
let b: Database;
const candle = `INSERT INTO candles (token, interval_s, bucket, open, high, low, close, volume_usd, volume, swaps, last_block)
  VALUES ($1, 300, '2026-11-01T00:05:00Z', 1, 2, 0.5, $2, 10, 1000, 3, 7)`;

before(async () => {
  [a, b] = await Promise.all([openPglite(), openPglite()]);
  for (const db of [a, b]) {
    await upsertTokens(db, makeTokens(20));
    await db.query(candle, ['0xaa', '1.5']);
  }
});
after(async () => {
  await a.close();
  await b.close();
});

test('equal databases pass; a value changed in any table, or a row more, fails with the rows shown', async () => {
  await assertSameSnapshot(a, b, 'equal');
  await b.query(`UPDATE candles SET close = 1.25`);
  await assert.rejects(assertSameSnapshot(a, b, 'a close moved'), (e: Error) => e.message.includes('a close moved') && e.message.includes('1.25'));
  await b.query(`UPDATE candles SET close = 1.5`);
  await assertSameSnapshot(a, b, 'put back');
  await b.query(candle, ['0xbb', '1.5']);
  await assert.rejects(assertSameSnapshot(a, b, 'a row more'), /a row more/);
  await b.query(`DELETE FROM candles WHERE token = '0xbb'`);
  await b.query(`UPDATE tokens SET created_at = created_at + interval '1 second' WHERE address = (SELECT min(address) FROM tokens)`);
  await assert.rejects(assertSameSnapshot(a, b, 'a time moved'), /a time moved/);
  // a difference in what the snapshot leaves out (here the figures-only snapshot's candles) passes, as deepEqual does
  await b.query(`UPDATE tokens SET created_at = created_at - interval '1 second' WHERE address = (SELECT min(address) FROM tokens)`);
  await b.query(`UPDATE candles SET close = 1.25`);
  await assertSameSnapshot(a, b, 'figures only', { figuresOnly: true });
  assert.deepEqual(await snapshotDb(a, { figuresOnly: true }), await snapshotDb(b, { figuresOnly: true }));
});
