// A pool write restamps the tokens it prices so readers serialise their embedded pool again; in a
// transaction that already stamped a token above its starting version, that stamp is kept (a
// reader sees the whole transaction or none of it) and the token is not rewritten a second time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadTokenChanges, readDataVersion, upsertPools, upsertTokens, type Database, type PoolWrite } from '../../src/db/index.ts';
import { resetDatabase, testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const pool = (i: number, token: number, liquidity: string): PoolWrite => ({
  address: addressOf(100 + i), dex: addressOf(200), family: 'uniswap-v2', fee: null, stable: null, hooks: null, priceSourceExclusion: null, token0Native: false,
  token0: addressOf(token), token0Symbol: `T${token}`, token1: addressOf(50), token1Symbol: 'Q', liquidity, price: '2.5', createdBlock: 1,
});

for (const target of testDatabases) {
  describe(`pool writes restamping priced tokens on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
    });
    after(() => db.close());

    it('keeps the stamp a token got earlier in the transaction; stamps the others; a reader loads all of them', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(6).map((t, i) => (i < 4 ? { ...t, priceSource: addressOf(100 + i) } : t));
      await upsertTokens(db, tokens);
      await upsertPools(db, [0, 1, 2, 3].map((i) => pool(i, i, '10')));
      const seen = await loadTokenChanges(db);
      const versions = async () => new Map((await db.query<{ address: string; v: string }>(`SELECT address, row_version::text AS v FROM tokens`)).map((r) => [r.address, Number(r.v)]));
      let stampedByTokens = new Map<string, number>();
      await db.transaction(async (tx) => {
        const start = await readDataVersion(tx);
        // tokens 0 and 1 change themselves; all four pools change
        await upsertTokens(tx, [0, 1].map((i) => ({ ...tokens[i]!, currentPrice: '99.5', at: new Date() })));
        stampedByTokens = await (async () => new Map((await tx.query<{ address: string; v: string }>(`SELECT address, row_version::text AS v FROM tokens`)).map((r) => [r.address, Number(r.v)])))();
        await upsertPools(tx, [0, 1, 2, 3].map((i) => pool(i, i, '20')), start);
      });
      const after = await versions();
      for (const i of [0, 1]) assert.equal(after.get(addressOf(i)), stampedByTokens.get(addressOf(i)), `token ${i} keeps its stamp`);
      for (const i of [2, 3]) assert.ok(after.get(addressOf(i))! > seen.version, `token ${i} restamped`);
      for (const i of [4, 5]) assert.ok(after.get(addressOf(i))! <= seen.version, `token ${i} untouched`);
      const next = await loadTokenChanges(db, seen);
      assert.deepEqual(next.rows.map((r) => r.address).sort(), [0, 1, 2, 3].map(addressOf).sort());
      assert.ok(next.rows.filter((r) => r.address === addressOf(0) || r.address === addressOf(1)).every((r) => r.currentPrice === '99.5'));
    });

    it('without a starting version restamps every token the changed pools price (as before)', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(3).map((t, i) => ({ ...t, priceSource: addressOf(100 + i) }));
      await upsertTokens(db, tokens);
      await upsertPools(db, [0, 1, 2].map((i) => pool(i, i, '10')));
      const seen = await loadTokenChanges(db);
      await upsertPools(db, [pool(1, 1, '11')]);
      assert.deepEqual((await loadTokenChanges(db, seen)).rows.map((r) => r.address), [addressOf(1)]);
    });
  });
}
