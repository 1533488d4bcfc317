// Hourly price points: version stamps, the incremental and full loads API processes follow, and
// pruning that keeps each token's carried price.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  appendPricePoints,
  loadPriceChanges,
  prunePricePoints,
  readDataState,
  upsertTokens,
  type Database,
  type DataVersion,
  type PricePointChange,
  type PriceTokenRow,
} from '../../src/db/index.ts';
import { resetDatabase, testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const HOUR = 3_600_000;
const NOON = Date.parse('2026-11-21T12:00:00.000Z');
const at = (hoursAgo: number, minute = 0) => new Date(NOON - hoursAgo * HOUR + minute * 60_000);
const hourOf = (d: Date) => Math.floor(d.getTime() / HOUR);

async function load(db: Database, since: DataVersion | undefined, cutoff: Date, chunkRows?: number) {
  const tokens: PriceTokenRow[] = [];
  const points: PricePointChange[] = [];
  const changes = await loadPriceChanges(db, since, { cutoff, chunkRows }, {
    tokens: (rows) => tokens.push(...rows),
    points: (rows) => points.push(...rows),
  });
  const sorted = points.map((p) => `${p.token.slice(-2)}@${p.hour - hourOf(at(0))}=${p.price}`).sort();
  return { ...changes, tokens, points: sorted };
}

for (const target of testDatabases) {
  describe(`price points on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
    });
    beforeEach(async () => {
      await resetDatabase(db);
      await upsertTokens(db, makeTokens(4));
      await appendPricePoints(db, [
        ...[40, 30, 26, 25, 24, 3, 0].map((h) => ({ token: addressOf(1), price: `${h}.5`, observedAt: at(h, 1), blockNumber: 100 - h })),
        { token: addressOf(2), price: '2', observedAt: at(50), blockNumber: 10 },
        { token: addressOf(3), price: '3', observedAt: at(1), blockNumber: 99 },
      ]);
    });
    after(() => db.close());

    for (const chunkRows of [undefined, 1, 2]) {
      it(`loads in full every token, the points from the cutoff and each token's latest before it (${chunkRows ?? 'default'} tokens per query)`, async () => {
        const full = await load(db, undefined, at(25), chunkRows);
        assert.equal(full.full, true);
        assert.deepEqual(full.tokens.map((t) => t.address).sort(), [0, 1, 2, 3].map(addressOf));
        assert.deepEqual(full.points, ['02@-24=24.5', '02@-25=25.5', '02@-26=26.5', '02@-3=3.5', '02@0=0.5', '03@-50=2', '04@-1=3']);
      });
    }

    it('stamps inserted and updated points with the version they land in, and loads only those', async () => {
      const first = await load(db, undefined, at(25));
      assert.deepEqual((await load(db, first, at(25))).points, [], 'nothing new');
      await appendPricePoints(db, [
        { token: addressOf(1), price: '9', observedAt: at(0, 30), blockNumber: 200 }, // overwrites this hour
        { token: addressOf(2), price: '8', observedAt: at(45), blockNumber: 201 }, // old hours come too
      ]);
      await appendPricePoints(db, [{ token: addressOf(1), price: '1', observedAt: at(0, 10), blockNumber: 150 }]); // older: ignored
      const next = await load(db, first, at(25));
      assert.equal(next.full, false);
      assert.deepEqual(next.points, ['02@0=9', '03@-45=8']);
      assert.deepEqual(next.tokens, [], 'no token changed');
      await upsertTokens(db, [{ ...makeTokens(4)[3]!, currentPrice: '5', at: new Date() }]);
      const tokens = await load(db, next, at(25));
      assert.deepEqual(tokens.tokens.map((t) => [t.address, t.currentPrice]), [[addressOf(3), '5']]);
    });

    it('prunes points 48 h behind the newest hour, keeping each token its latest before that', async () => {
      const state = await readDataState(db);
      assert.equal(await prunePricePoints(db, { newest: at(-10, 30) }), 0, 'nothing 48 h old but carried points');
      // newest stored hour is 12:00: the cutoff is 48 h before it
      assert.equal(await prunePricePoints(db), 0);
      assert.equal(await prunePricePoints(db, { newest: at(0), keepMs: 25 * HOUR }), 2); // 40 and 30 h ago go, 26 h stays
      assert.equal(await prunePricePoints(db, { newest: at(0), keepMs: 2 * HOUR }), 3); // 26, 25, 24 go, 3 stays
      const rows = await db.query<{ token: string; hour: Date }>(`SELECT token, hour FROM price_points ORDER BY token, hour`);
      assert.deepEqual(
        rows.map((r) => `${r.token.slice(-2)}@${(new Date(r.hour).getTime() - NOON) / HOUR}`),
        ['02@-3', '02@0', '03@-50', '04@-1'],
      );
      assert.deepEqual(await readDataState(db), state, 'pruning moves no version');
      await resetDatabase(db);
      assert.equal(await prunePricePoints(db), 0, 'an empty table');
    });
  });
}
