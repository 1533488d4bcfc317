// Token loads read in keyset pages by address: any page size returns exactly the rows of one
// query, full and incremental, including page sizes that divide the row count exactly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bumpDataGeneration, bumpHistoryGeneration, loadPriceChanges, loadTokenChanges, upsertTokens, type Database, type TokenRow } from '../../src/db/index.ts';
import { tokenColumns } from '../../src/db/tokens/TokenRow.ts';
import { resetDatabase, testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const byAddress = (rows: TokenRow[]) => [...rows].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));

for (const target of testDatabases) {
  describe(`chunked token loads on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
    });
    after(() => db.close());

    it('a full load in pages of any size returns exactly the rows of one query, ordered by address', async () => {
      await resetDatabase(db);
      await upsertTokens(db, makeTokens(23));
      const oneQuery = byAddress(await db.query<TokenRow>(`SELECT ${tokenColumns} FROM tokens`));
      assert.equal(oneQuery.length, 23);
      for (const chunkRows of [1, 2, 5, 22, 23, 24, 2000]) {
        const loaded = await loadTokenChanges(db, undefined, { chunkRows });
        assert.equal(loaded.full, true);
        assert.deepEqual(loaded.rows, oneQuery, `chunkRows ${chunkRows}`);
      }
    });

    it('reads every value as the plain query does: microseconds, nulls, long decimals, quotes, backslashes and other scripts', async () => {
      await resetDatabase(db);
      await upsertTokens(db, makeTokens(4));
      await db.query(
        `UPDATE tokens SET updated_at = '2026-11-28 06:14:45.950789+00', created_at = '1999-12-31 23:59:59.999999+00',
           price_updated_at = NULL, market_updated_at = '2026-11-28 06:14:45.000001+00',
           name = $1, symbol = $2, current_price = 0.000000000000000000000000000001234567890123456789,
           fdv = 123456789012345678901234567890.123456789, total_supply = 1157920892373161954235709850086879078532699846656405640394575840079131296399
         WHERE address = $3`,
        ['Q"uote\\back\nline \u00e9\u4e2d\u{1F600}', 'Z\t\u0001', addressOf(1)],
      );
      await db.query(`UPDATE tokens SET price_updated_at = '2026-11-28 06:14:45.5+00', logo = NULL WHERE address = $1`, [addressOf(2)]);
      const oneQuery = byAddress(await db.query<TokenRow>(`SELECT ${tokenColumns} FROM tokens`));
      const loaded = await loadTokenChanges(db, undefined, { chunkRows: 3 });
      assert.deepStrictEqual(loaded.rows, oneQuery);
      const odd = loaded.rows.find((r) => r.address === addressOf(1))!;
      assert.equal(odd.name, 'Q"uote\\back\nline \u00e9\u4e2d\u{1F600}');
      assert.equal(odd.priceUpdatedAt, null);
      assert.ok(odd.updatedAt instanceof Date);
    });

    it('an incremental load in small pages returns exactly the changed rows', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(12);
      await upsertTokens(db, tokens);
      const first = await loadTokenChanges(db, undefined, { chunkRows: 5 });
      assert.equal(first.rows.length, 12);
      const changed = [0, 3, 4, 7, 8, 11];
      await upsertTokens(db, changed.map((i) => ({ ...tokens[i]!, name: `${tokens[i]!.name} v2`, at: new Date() })));
      for (const chunkRows of [1, 2, 3, 6, 7]) {
        const next = await loadTokenChanges(db, first, { chunkRows });
        assert.equal(next.full, false);
        assert.deepEqual(next.rows.map((r) => r.address), changed.map(addressOf).sort(), `chunkRows ${chunkRows}`);
        assert.ok(next.rows.every((r) => r.name.endsWith(' v2')));
        assert.deepEqual(next.rows, byAddress(await db.query<TokenRow>(`SELECT ${tokenColumns} FROM tokens WHERE row_version > $1`, [first.version])));
      }
      assert.equal((await loadTokenChanges(db, await loadTokenChanges(db), { chunkRows: 1 })).rows.length, 0, 'nothing new');
    });

    it('loads in full when token or pool rows were deleted, not when only history rows were', async () => {
      await resetDatabase(db);
      await upsertTokens(db, makeTokens(6));
      const first = await loadTokenChanges(db);
      const prices = await loadPriceChanges(db, undefined, { cutoff: new Date(0) }, { points() {}, tokens() {} });
      // A history range filled: carried price changes and candles deleted, the tokens rewritten.
      await bumpHistoryGeneration(db);
      const afterFill = await loadTokenChanges(db, first);
      assert.equal(afterFill.full, false, 'the catalogue follows by version');
      assert.notEqual(afterFill.version, first.version);
      assert.equal((await loadPriceChanges(db, prices, { cutoff: new Date(0) }, { points() {}, tokens() {} })).full, true, 'the price histories reload');
      // A reorg: tokens deleted.
      await db.query(`DELETE FROM tokens WHERE address = $1`, [addressOf(2)]);
      await bumpDataGeneration(db);
      const afterReorg = await loadTokenChanges(db, afterFill);
      assert.equal(afterReorg.full, true);
      assert.equal(afterReorg.rows.length, 5);
    });
  });
}
