// The query lane answers uncached reads without Express. Every URL here is asked of the
// production handler and of its Express app alone, both checked against the spec: status, body
// and headers must be identical, and only URLs the lane is sure of may skip Express. (The
// generated differential test, differential.test.ts, compares the two on thousands of URLs.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { createTokenCatalog, type TokenCatalog } from '../../../src/readModel/tokens/createTokenCatalog.ts';
import { matchOperation } from '../../../src/api/operations/matchOperation.ts';
import { withResponseValidation } from '../../../src/api/validation/withResponseValidation.ts';
import { createPriceHistoryStore, type PriceHistoryStore } from '../../../src/readModel/prices/createPriceHistoryStore.ts';
import { appendPricePoints, upsertTokens, type Database } from '../../../src/db/index.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { recordExpressRequests, responseValidator, testApp } from '../../helpers/testApp.ts';
import { addressOf, makeTokens } from '../../helpers/tokenFixtures.ts';

const NOW = new Date('2026-11-21T12:30:00.000Z');
const HOUR = 3_600_000;
const upper = (a: string) => `0x${a.slice(2).toUpperCase()}`;
const many = (n: number) => Array.from({ length: n }, (_, i) => addressOf(i)).join(',');

// [url, goes through the lane?]
const cases: [string, boolean][] = [
  ['/tokens', true],
  ['/tokens?page=2&limit=7', true],
  ['/tokens?order=last24hVariationAbsolute&sort=desc', true],
  ['/tokens?order=fdv&sort=asc&isSecure=true', true],
  ['/tokens?isSecure=false&order=name&sort=asc&limit=100&page=1', true],
  ['/tokens?page=1000&limit=20', true],
  [`/tokens?addresses=${addressOf(1)},${upper(addressOf(2))},${addressOf(1)},${addressOf(70)}&limit=100`, true],
  [`/tokens?addresses=${many(100)}`, true],
  [`/tokens/${addressOf(3)}`, true],
  [`/tokens/${upper(addressOf(4))}`, true],
  [`/tokens/${addressOf(500)}`, true], // not indexed: 404 from the lane
  [`/prices/${addressOf(1)}`, true],
  [`/prices/${addressOf(500)}`, true],
  [`/prices?addresses=${addressOf(1)},${addressOf(2)},${addressOf(500)}`, true],
  // undeclared parameters are ignored (named in X-Ignored-Parameters): the lane answers the rest
  ['/tokens?unknown=1', true],
  ['/tokens?limit=3&_=1700000000000&includePrice=true', true],
  [`/tokens/${addressOf(3)}?x=1`, true],
  [`/tokens/${addressOf(3)}?x`, true],
  ['/tokens?foo[a]=1', true], // any form of an undeclared name: the lane reads the declared query
  ['/tokens?%5F=1&limit=2', true],
  // everything below is Express's to answer
  ['/tokens?page=0', false],
  ['/tokens?page=1001', false],
  ['/tokens?limit=101', false],
  ['/tokens?limit=0x10', false],
  ['/tokens?limit=1e1', false],
  ['/tokens?limit=%205', false],
  ['/tokens?limit=', false],
  ['/tokens?limit=5&limit=6', false],
  ['/tokens?page=-1', false],
  ['/tokens?order=nope', false],
  ['/tokens?sort=up', false],
  ['/tokens?isSecure=yes', false],
  ['/tokens?isSecure=TRUE', false],
  ['/tokens?page', false],
  ['/tokens?page[a]=1', false],
  ['/tokens?page=0&_=1', false],
  [`/tokens?addresses=${many(101)}`, false],
  [`/tokens?addresses=${addressOf(1)},,${addressOf(2)}`, false],
  ['/tokens?addresses=0x123', false],
  [`/tokens?addresses=${addressOf(1)}%2C${addressOf(2)}`, false],
  ['/tokens/0x123', false],
  ['/tokens/', false],
  [`/tokens/${addressOf(3)}/`, false],
  ['/prices', false],
  ['/prices?addresses=', false],
  ['/prices/nope', false],
];

describe('query lane', () => {
  let db: Database;
  let catalog: TokenCatalog;
  let prices: PriceHistoryStore;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, makeTokens(120));
    await appendPricePoints(db, [
      ...Array.from({ length: 30 }, (_, h) => ({ token: addressOf(1), price: `${h}.5`, observedAt: new Date(NOW.getTime() - h * HOUR), blockNumber: 1000 - h })),
      { token: addressOf(2), price: '7', observedAt: new Date(NOW.getTime() - 3 * HOUR), blockNumber: 1002 },
    ]);
    catalog = createTokenCatalog({ db, staleMs: 60_000 });
    prices = createPriceHistoryStore({ db, staleMs: 60_000, now: () => NOW });
    await catalog.refresh(true);
    await prices.refresh(true);
  });
  after(async () => {
    catalog.stop();
    prices.stop();
    await db.close();
  });

  function build() {
    const app = testApp(db, { catalog, prices, now: () => NOW });
    const reachedExpress = recordExpressRequests(app.parts.app);
    return { handler: app, express: withResponseValidation(app.parts.app, responseValidator), reachedExpress, metrics: app.parts.metrics };
  }

  // (content-length is left out: Express compresses on the fly, chunked, the cache gzips once)
  const comparedHeaders = [
    'content-type', 'etag', 'cache-control', 'vary', 'retry-after', 'access-control-allow-origin',
    'access-control-expose-headers', 'content-security-policy', 'strict-transport-security', 'x-content-type-options',
    'cross-origin-resource-policy', 'referrer-policy', 'x-frame-options', 'x-ignored-parameters',
  ];

  for (const [url, viaLane] of cases) {
    it(`${viaLane ? 'lane' : 'Express'}: ${url.length > 90 ? `${url.slice(0, 90)}…` : url}`, async () => {
      const lane = build();
      const full = build();
      const expected = await request(full.express).get(url).set('Origin', 'https://dapp.example');
      const actual = await request(lane.handler).get(url).set('Origin', 'https://dapp.example');
      assert.equal(actual.status, expected.status);
      assert.equal(actual.text, expected.text);
      for (const name of comparedHeaders) assert.equal(actual.headers[name], expected.headers[name], name);
      assert.deepEqual(lane.reachedExpress, viaLane ? [] : [`GET ${url}`], viaLane ? 'answered by the lane' : 'left to Express');
      // what either path answered is stored: the same URL again is a cache hit with the same
      // body, unless the path is not written as the spec writes it (Express answers it again)
      if (actual.status === 200) {
        const again = await request(lane.handler).get(url).set('If-None-Match', actual.headers.etag!);
        assert.equal(again.status, 304);
        if (matchOperation(url)) assert.match(await lane.metrics.registry.metrics(), /cache_lookups_total\{cache="response",result="hit"\} 1/);
        else assert.equal(lane.reachedExpress.length, 2, 'answered by Express again');
      }
    });
  }

  it('labels metrics by route template and answers the request id', async () => {
    const lane = build();
    const res = await request(lane.handler).get(`/tokens/${addressOf(5)}`).set('X-Request-Id', 'abc-1');
    assert.equal(res.headers['x-request-id'], 'abc-1');
    assert.match(await lane.metrics.registry.metrics(), /http_request_duration_seconds_count\{method="GET",route="\/tokens\/:contractAddress",status="200"\} 1/);
  });

  it('rate-limits lane answers like the others', async () => {
    const handler = testApp(db, { catalog, prices, trustProxy: 1, rateLimit: { perSecond: 0, perMinute: 2 } });
    const get = (page: number) => request(handler).get(`/tokens?page=${page}&limit=3`).set('X-Forwarded-For', '203.0.113.7');
    assert.equal((await get(1)).status, 200);
    assert.match((await get(2)).headers.ratelimit ?? '', /"per-minute"; r=0/);
    const limited = await get(3);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.type, 'urn:token-api:problem:rate-limited');
  });
});
