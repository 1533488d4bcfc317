import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { appendPricePoints, upsertTokens, type Database } from '../../src/db/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const NOW = new Date('2026-11-21T12:30:00.000Z');
const HOUR = 3_600_000;
const at = (hoursAgo: number, minute = 0) => new Date(Date.parse('2026-11-21T12:00:00.000Z') - hoursAgo * HOUR + minute * 60_000);

for (const target of testDatabases) {
  describe(`price history on ${target.name}`, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
      await upsertTokens(db, makeTokens(3));
      await appendPricePoints(db, [
        // 30 hours of prices for token 1, two per hour: the later one in each hour wins
        ...Array.from({ length: 30 }, (_, h) => [
          { token: addressOf(1), price: `${h}.25`, observedAt: at(h, 10), blockNumber: 1000 - h * 2 },
          { token: addressOf(1), price: `${h}.5`, observedAt: at(h, 40), blockNumber: 1001 - h * 2 },
        ]).flat(),
        { token: addressOf(2), price: '7', observedAt: at(0, 5), blockNumber: 1002 },
      ]);
    });
    after(() => db.close());

    const app = () => testApp(db, { now: () => NOW });

    it('answers the 24 hourly buckets ending with the current hour, oldest first', async () => {
      const res = await request(app()).get(`/prices/${addressOf(1)}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.length, 24);
      assert.deepEqual(res.body[0], { price: 23.5, timestamp: at(23).toISOString() });
      assert.deepEqual(res.body.at(-1), { price: 0.5, timestamp: at(0).toISOString() });
    });

    it('answers [] for a known token without prices and 404 for an unknown one', async () => {
      assert.deepEqual((await request(app()).get(`/prices/${addressOf(0)}`)).body, []);
      const res = await request(app()).get('/prices/0x00000000000000000000000000000000000000ff');
      assert.equal(res.status, 404);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
    });

    it('keys several histories by checksummed address and leaves unknown tokens out', async () => {
      const res = await request(app()).get(
        `/prices?addresses=${addressOf(1)},${addressOf(2).toUpperCase().replace('0X', '0x')},0x00000000000000000000000000000000000000ff`,
      );
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), [addressOf(1), addressOf(2)]);
      assert.deepEqual(res.body[addressOf(2)], [{ price: 7, timestamp: at(0).toISOString() }]);
    });

    for (const [query, field] of [
      ['', 'addresses'],
      ['addresses=0x12', 'addresses'],
      [`addresses=${Array.from({ length: 101 }, (_, i) => addressOf(i)).join(',')}`, 'addresses'],
      [`addresses=${addressOf(1)}&page=2`, 'page'],
    ] as const) {
      it(`rejects /prices?${query.slice(0, 40)} naming ${field}`, async () => {
        const res = await request(app()).get(`/prices?${query}`);
        assert.equal(res.status, 400);
        assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), JSON.stringify(res.body));
      });
    }
  });
}
