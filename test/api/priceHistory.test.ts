import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { appendPricePoints, prunePricePoints, upsertTokens, type Database } from '../../src/db/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const NOW = new Date('2026-11-21T12:30:00.000Z');
const HOUR = 3_600_000;
const at = (hoursAgo: number, minute = 0) => new Date(Date.parse('2026-11-21T12:00:00.000Z') - hoursAgo * HOUR + minute * 60_000);

for (const target of testDatabases) {
  describe(`price history on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
      await upsertTokens(db, makeTokens(8).map((t) => ({ ...t, currentPrice: null, priceUpdatedAt: null })));
      await appendPricePoints(db, [
        // 30 hours of prices for token 1, two per hour: the later one in each hour wins
        ...Array.from({ length: 30 }, (_, h) => [
          { token: addressOf(1), price: `${h}.25`, observedAt: at(h, 10), blockNumber: 1000 - h * 2 },
          { token: addressOf(1), price: `${h}.5`, observedAt: at(h, 40), blockNumber: 1001 - h * 2 },
        ]).flat(),
        { token: addressOf(2), price: '7', observedAt: at(0, 5), blockNumber: 1002 },
        // token 4: one trade 30 hours ago, none since
        { token: addressOf(4), price: '2.5', observedAt: at(30, 1), blockNumber: 900 },
        // token 7: a price 5 hours ago and 2 hours ago
        { token: addressOf(7), price: '10', observedAt: at(5, 1), blockNumber: 990 },
        { token: addressOf(7), price: '11', observedAt: at(2, 1), blockNumber: 995 },
      ]);
      // token 5: priced (a stablecoin at 1) since 40 hours ago, without any recorded change
      const [stable] = makeTokens(6).slice(5);
      await upsertTokens(db, [{ ...stable!, currentPrice: '1', priceUpdatedAt: at(40), at: at(40) }]);
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

    it('carries the last price forward through hours without trades', async () => {
      const old = (await request(app()).get(`/prices/${addressOf(4)}`)).body;
      assert.equal(old.length, 24);
      assert.ok(old.every((p: { price: number }) => p.price === 2.5));
      const recent = (await request(app()).get(`/prices/${addressOf(7)}`)).body;
      assert.deepEqual(recent.map((p: { price: number }) => p.price), [10, 10, 10, 11, 11, 11]);
      assert.equal(recent[0].timestamp, at(5).toISOString());
    });

    it('answers a token priced without recorded changes (a stablecoin) at its price every hour', async () => {
      const body = (await request(app()).get(`/prices/${addressOf(5)}`)).body;
      assert.equal(body.length, 24);
      assert.ok(body.every((p: { price: number }) => p.price === 1));
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

    it('answers the same after old points are pruned, from a running store and a new one', async () => {
      const some = [0, 1, 2, 4, 5, 7].map(addressOf);
      const urls = [...some.map((a) => `/prices/${a}`), `/prices?addresses=${some.join(',')}`];
      const running = app();
      const bodies = async (server: ReturnType<typeof app>) => Promise.all(urls.map(async (u) => (await request(server).get(u).expect(200)).text));
      const before = await bodies(running);
      assert.equal(await prunePricePoints(db, { newest: NOW, keepMs: 25 * HOUR }), 3, "token 1's points 27 to 29 hours ago");
      assert.deepEqual(await bodies(running), before);
      assert.deepEqual(await bodies(app()), before);
    });

    for (const [query, field] of [
      ['', 'addresses'],
      ['addresses=0x12', 'addresses'],
      [`addresses=${Array.from({ length: 101 }, (_, i) => addressOf(i)).join(',')}`, 'addresses'],
    ] as const) {
      it(`rejects /prices?${query.slice(0, 40)} naming ${field}`, async () => {
        const res = await request(app()).get(`/prices?${query}`);
        assert.equal(res.status, 400);
        assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), JSON.stringify(res.body));
      });
    }

    it('ignores a parameter /prices does not declare, and names it', async () => {
      const plain = await request(app()).get(`/prices?addresses=${addressOf(1)}`).expect(200);
      const res = await request(app()).get(`/prices?addresses=${addressOf(1)}&page=2`).expect(200);
      assert.equal(res.text, plain.text);
      assert.equal(res.headers['x-ignored-parameters'], 'page');
    });
  });
}
