// The write API the indexer uses, on PGlite and PostgreSQL alike.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { appendPricePoints, pruneSwaps, readDataVersion, recordSwaps, refreshSwapCounts, upsertTokens, type Database, type SwapWrite, type TokenWrite } from '../../src/db/index.ts';
import { getToken, listTokens } from '../oracles/index.ts';
import { resetDatabase, testDatabases } from '../helpers/testDatabases.ts';
import { BASE_TIME, addressOf } from '../helpers/tokenFixtures.ts';

const HOUR = 3_600_000;
const t = (hours: number) => new Date(BASE_TIME.getTime() + hours * HOUR);

const token = (over: Partial<TokenWrite> = {}): TokenWrite => ({
  address: addressOf(1),
  name: 'Alpha',
  symbol: 'ALP',
  decimals: 18,
  totalSupply: 10n ** 27n,
  firstSeenAt: t(0),
  at: t(0),
  ...over,
});

const swap = (blockNumber: number, logIndex: number, side: 'buy' | 'sell', hours: number): SwapWrite => ({
  blockNumber,
  logIndex,
  token: addressOf(1),
  side,
  txHash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
  pool: addressOf(50),
  occurredAt: t(hours),
  amount: 10n ** 18n,
  valueUsd: '2.5',
});

for (const target of testDatabases) {
  describe(`write API on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
    });
    beforeEach(() => resetDatabase(db));
    after(() => db.close());

    it('keeps uint256 supplies exact, above 2^64 and at 2^256-1', async () => {
      const max = 2n ** 256n - 1n;
      await upsertTokens(db, [token({ totalSupply: max }), token({ address: addressOf(2), totalSupply: 2n ** 64n + 7n })]);
      assert.equal((await getToken(db, addressOf(1)))?.totalSupply, max.toString());
      assert.equal((await getToken(db, addressOf(2)))?.totalSupply, (2n ** 64n + 7n).toString());
    });

    it('keeps the first sighting as createdAt and moves updatedAt only on a real change', async () => {
      await upsertTokens(db, [token()]);
      await upsertTokens(db, [token({ firstSeenAt: t(5), at: t(5) })]);
      let row = await getToken(db, addressOf(1));
      assert.equal(row?.createdAt.toISOString(), t(0).toISOString());
      assert.equal(row?.updatedAt.toISOString(), t(0).toISOString(), 'nothing changed');
      await upsertTokens(db, [token({ currentPrice: '1.5', at: t(6) })]);
      row = await getToken(db, addressOf(1));
      assert.equal(row?.currentPrice, '1.5');
      assert.equal(row?.updatedAt.toISOString(), t(6).toISOString());
    });

    it('stores prices exactly and keeps the latest observation of each hour', async () => {
      await upsertTokens(db, [token()]);
      await appendPricePoints(db, [
        { token: addressOf(1), price: '0.000000000000000001', observedAt: t(1.5), blockNumber: 10 },
        { token: addressOf(1), price: '2', observedAt: t(1.1), blockNumber: 8 },
      ]);
      await appendPricePoints(db, [{ token: addressOf(1), price: '3', observedAt: t(1.2), blockNumber: 9 }]);
      const rows = await db.query<{ price: string; hour: Date }>(`SELECT price::text AS price, hour FROM price_points`);
      assert.deepEqual(rows.map((r) => [r.price, r.hour.toISOString()]), [['0.000000000000000001', t(1).toISOString()]]);
    });

    it('counts swaps once and over the rolling 24 hours only', async () => {
      await upsertTokens(db, [token()]);
      const swaps = [swap(1, 0, 'buy', 1), swap(1, 1, 'sell', 1), swap(2, 0, 'buy', 10), swap(3, 0, 'buy', 20)];
      await recordSwaps(db, swaps);
      await recordSwaps(db, swaps); // replayed batch: not counted twice
      assert.equal(await refreshSwapCounts(db, t(20)), 1);
      let row = await getToken(db, addressOf(1));
      assert.deepEqual([row?.buys, row?.sells, row?.swaps, row?.volume24h], [3, 1, 4, '10.0']);
      assert.equal(row?.updatedAt.toISOString(), t(20).toISOString());
      await refreshSwapCounts(db, t(25.5)); // the two swaps of hour 1 fall out of the window
      row = await getToken(db, addressOf(1));
      assert.deepEqual([row?.buys, row?.sells, row?.swaps, row?.volume24h], [2, 0, 2, '5.0']);
      assert.equal(await refreshSwapCounts(db, t(25.5)), 0, 'no change, no write');
      await refreshSwapCounts(db, t(45));
      row = await getToken(db, addressOf(1));
      assert.deepEqual([row?.buys, row?.sells, row?.swaps, row?.volume24h], [0, 0, 0, '0']);
      const count = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM swaps`))[0]?.n;
      await refreshSwapCounts(db, t(60));
      assert.equal(await count(), 4, 'counting deletes nothing: old swaps go by their retention (pruneSwaps)');
      assert.equal(await pruneSwaps(db, new Date(t(60).getTime() - 48 * 3_600_000), { batchRows: 100, maxPasses: 1 }), 3);
      assert.equal(await count(), 1, 'swaps two days behind are pruned, the later one kept');
    });

    it('bumps the data version on every write', async () => {
      const before = await readDataVersion(db);
      await upsertTokens(db, [token()]);
      await appendPricePoints(db, [{ token: addressOf(1), price: '1', observedAt: t(1), blockNumber: 1 }]);
      assert.equal(await readDataVersion(db), before + 2);
    });

    it('writes nothing from a transaction that fails', async () => {
      await assert.rejects(
        db.transaction(async (tx) => {
          await upsertTokens(tx, [token()]);
          await tx.query('SELECT 1/0');
        }),
      );
      assert.equal(await getToken(db, addressOf(1)), undefined);
    });

    it('answers 100 addresses with one query', async () => {
      await upsertTokens(db, Array.from({ length: 150 }, (_, i) => token({ address: addressOf(i), name: `T${i}` })));
      const addresses = Array.from({ length: 100 }, (_, i) => addressOf(i * 2));
      const { rows, total } = await listTokens(db, { page: 1, limit: 100, order: 'name', sort: 'asc', addresses });
      assert.equal(total, 75);
      assert.equal(rows.length, 75);
    });
  });
}
