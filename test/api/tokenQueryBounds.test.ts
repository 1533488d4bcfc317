// Every bound of GET /tokens at its edge: 2xx inside, problem+json naming the field outside.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { upsertTokens, type Database } from '../../src/db/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const hundred = Array.from({ length: 100 }, (_, i) => addressOf(i));

const accepted: [string, string][] = [
  ['page=1', 'page'],
  ['page=1000', 'page'],
  ['limit=1', 'limit'],
  ['limit=100', 'limit'],
  [`addresses=${hundred.join(',')}`, '100 addresses'],
  [`addresses=${addressOf(1).toUpperCase().replace('0X', '0x')},${addressOf(2)}`, 'mixed case'],
  ['isSecure=true', 'isSecure'],
  ['chain=linea', 'an undeclared parameter (ignored, named in X-Ignored-Parameters)'],
  ['isSecure=false', 'isSecure'],
  ['order=last24hVariationAbsolute&sort=asc', 'order and sort'],
];

const rejected: [string, string][] = [
  ['page=0', 'page'],
  ['page=1001', 'page'],
  ['page=-1', 'page'],
  ['page=1.5', 'page'],
  ['page=abc', 'page'],
  ['page=0x10', 'page'],
  ['page=1e1', 'page'],
  ['page=%201', 'page'],
  ['page=', 'page'],
  ['limit=0', 'limit'],
  ['limit=101', 'limit'],
  [`addresses=${[...hundred, addressOf(100)].join(',')}`, 'addresses'],
  [`addresses=${addressOf(1)},,${addressOf(2)}`, 'addresses'],
  [`addresses=${addressOf(1)},0x123`, 'addresses'],
  ['addresses=', 'addresses'],
  ['order=volume', 'order'],
  ['sort=up', 'sort'],
  ['isSecure=maybe', 'isSecure'],
  ['addresses', 'addresses'], // no value: express-openapi-validator threw a TypeError (500)
  [`addresses[a]=${addressOf(1)}`, 'addresses[a]'], // the same
  ['limit=5&page', 'page'],
];

for (const target of testDatabases) {
  describe(`GET /tokens bounds on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
      await upsertTokens(db, makeTokens(120));
    });
    after(() => db.close());

    for (const [query, what] of accepted) {
      it(`accepts ${what}: ${query.slice(0, 60)}`, async () => {
        const res = await request(testApp(db)).get(`/tokens?${query}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.ok(Array.isArray(res.body.data));
      });
    }

    for (const [query, field] of rejected) {
      it(`rejects ${query.slice(0, 60)} naming ${field}`, async () => {
        const res = await request(testApp(db)).get(`/tokens?${query}`);
        assert.equal(res.status, 400);
        assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
        assert.equal(res.body.status, 400);
        assert.equal(res.body.type, 'urn:token-api:problem:validation');
        assert.ok(
          res.body.errors.some((e: { field: string }) => e.field === field),
          `errors ${JSON.stringify(res.body.errors)} should name ${field}`,
        );
      });
    }

    it('applies the defaults: page 1, limit 50, fdv desc', async () => {
      const res = await request(testApp(db)).get('/tokens');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.meta, { page: 1, limit: 50, totalItemsCount: 120, pagesCount: 3 });
      const fdvs = res.body.data.map((t: { info: { fdv: number | null } }) => t.info.fdv);
      const priced = fdvs.filter((f: number | null) => f !== null);
      assert.deepEqual(priced, [...priced].sort((a: number, b: number) => b - a));
    });

    it('matches addresses case-insensitively and answers checksummed', async () => {
      const upper = `0x${addressOf(10).slice(2).toUpperCase()}`;
      const res = await request(testApp(db)).get(`/tokens?addresses=${upper}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.length, 1);
      assert.equal(res.body.data[0].contractAddress.toLowerCase(), addressOf(10));
    });

    it('answers unknown routes with a problem+json 404', async () => {
      const res = await request(testApp(db)).get('/nope');
      assert.equal(res.status, 404);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
    });
  });
}
