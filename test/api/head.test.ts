// HEAD on every GET route of the spec answers like the GET without its body: uncached (the
// lane, or Express when the lane declines) and cached alike. Express used to answer 405 to a
// HEAD the cache had not stored. The URLs come from the operation table, so a new operation is
// covered as soon as the spec has it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { appendPricePoints, rollupCandles, upsertTokens, type Database } from '../../src/db/index.ts';
import { savePriceChanges } from '../../src/db/indexer/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { operationAnswers } from '../../src/api/operations/operationAnswers.ts';
import { everyOperation, expressForm } from '../helpers/operationUrls.ts';
import { readOpenApiDocument } from '../../src/spec/readOpenApiDocument.ts';
import { recordExpressRequests, testApp } from '../helpers/testApp.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const token = addressOf(4);
// For every operation of the table a URL as the spec writes it (answered by the lane when the
// table says so) and the same request with a valid encoding the lane leaves to Express; then
// other forms Express answers, and the routes outside the spec.
const urls: [string, 'lane' | 'express'][] = [
  ...everyOperation(token, { getTokenPriceAt: 'block=1' }).flatMap(({ id, url }): [string, 'lane' | 'express'][] => {
    const encoded = expressForm(url);
    return [[url, operationAnswers[id].lane ? 'lane' : 'express'], ...(encoded ? [[encoded, 'express'] as [string, 'express']] : [])];
  }),
  ['/tokens?limit=%33', 'express'],
  [`/tokens/${token}?limit=1`, 'lane'], // not a parameter of this route: ignored (X-Ignored-Parameters)
  [`/tokens/${token}?limit`, 'lane'],
  [`/tokens/${token}?limit[a]=1`, 'lane'],
  [`/prices/${token}/candles?interval=%35m`, 'express'],
  [`/prices/${token}/at?time=2026-01-01T00%3A00%3A00Z`, 'express'],
  [`/prices?addresses=${token}&addresses=${token}`, 'express'], // 400, from Express
  [`/supply/circulating?contractAddress=${token}&format=json`, 'lane'], // 404: no network token configured
  ['/healthz', 'express'],
  ['/openapi.json', 'express'],
];

describe('HEAD on every GET route', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, makeTokens(10));
    await appendPricePoints(db, [{ token, price: '2', observedAt: new Date(), blockNumber: 1 }]);
    const change = { token, price: '2', observedAt: new Date('2025-12-31T00:00:00Z'), blockNumber: 1 };
    await savePriceChanges(db, [change]);
    await rollupCandles(db, [change], []);
  });
  after(() => db.close());

  it('covers every GET path of the spec', () => {
    const covered = new Set(urls.map(([u]) => u.split('?')[0]!.replace(token, '{contractAddress}')));
    for (const [path, item] of Object.entries(readOpenApiDocument().paths)) if (item.get) assert.ok(covered.has(path), path);
  });

  for (const [url, path] of urls) {
    it(`HEAD ${url} (${path}), before and after the answer is cached`, async () => {
      // One wall clock for both apps: a default candle range ends at the current interval, and a
      // 5-minute boundary between the GET and the HEAD would change the answer.
      const now = new Date();
      const app = testApp(db, { routers: [], now: () => now });
      const reached = recordExpressRequests(app.parts.app);
      // the same request headers for both: identity, so lengths compare (gzip is compared below)
      const get = await request(testApp(db, { now: () => now })).get(url).set('Accept-Encoding', 'identity');
      const first = await request(app).head(url).set('Accept-Encoding', 'identity');
      assert.equal(first.status, get.status, 'the status of the GET');
      assert.equal(first.text, undefined, 'no body');
      for (const name of ['content-type', 'content-length', 'etag', 'cache-control', 'vary', 'x-ignored-parameters']) {
        assert.equal(first.headers[name], get.headers[name], name);
      }
      assert.equal(reached.length > 0, path === 'express', `answered by ${path}`);
      const again = await request(app).head(url).set('Accept-Encoding', 'identity');
      assert.equal(again.status, get.status);
      assert.equal(again.headers.etag, get.headers.etag);
      assert.equal(again.headers['content-length'], get.headers['content-length']);
    });
  }

  it('HEAD with gzip accepted names the encoding the GET would use', async () => {
    const url = '/tokens?limit=10';
    const app = testApp(db);
    const get = await request(app).get(url).set('Accept-Encoding', 'gzip');
    const head = await request(app).head(url).set('Accept-Encoding', 'gzip');
    assert.equal(get.headers['content-encoding'], 'gzip');
    assert.equal(head.headers['content-encoding'], 'gzip');
    assert.equal(head.headers['content-length'], get.headers['content-length']);
  });
});
