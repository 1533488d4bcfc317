// Cached answers served in front of Express: the same answer, headers, limits, logs and metrics.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import type { HttpHandlerOptions } from '../../../src/api/createHttpHandler.ts';
import { upsertTokens, type Database } from '../../../src/db/index.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { createTokenCatalog, type TokenCatalog } from '../../../src/readModel/tokens/createTokenCatalog.ts';
import { testApp } from '../../helpers/testApp.ts';
import { makeTokens } from '../../helpers/tokenFixtures.ts';

describe('fast lane for cached answers', () => {
  let db: Database;
  let catalog: TokenCatalog;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, makeTokens(80));
    catalog = createTokenCatalog({ db, staleMs: 60_000 });
    await catalog.refresh(true);
  });
  after(async () => {
    catalog.stop();
    await db.close();
  });

  function handler(extra: Partial<HttpHandlerOptions> = {}) {
    const app = testApp(db, { catalog, ...extra });
    return { handler: app, metrics: app.parts.metrics };
  }

  it('answers a repeated GET from the cache with the same body and headers as the full pipeline', async () => {
    const { handler: h, metrics } = handler();
    const miss = await request(h).get('/tokens?limit=30').set('Origin', 'https://dapp.example');
    const hit = await request(h).get('/tokens?limit=30').set('Origin', 'https://dapp.example');
    assert.equal(hit.status, 200);
    assert.equal(hit.text, miss.text);
    for (const name of ['content-type', 'etag', 'cache-control', 'access-control-allow-origin', 'x-content-type-options', 'strict-transport-security', 'content-security-policy']) {
      assert.equal(hit.headers[name], miss.headers[name], name);
    }
    assert.match(hit.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
    assert.notEqual(hit.headers['x-request-id'], miss.headers['x-request-id']);
    const text = await metrics.registry.metrics();
    assert.match(text, /cache_lookups_total\{cache="response",result="hit"\} 1/);
    assert.match(text, /cache_lookups_total\{cache="response",result="miss"\} 1/, 'one lookup per request, not one per lane');
    assert.match(text, /http_request_duration_seconds_count\{method="GET",route="\/tokens",status="200"\} 2/);
  });

  it('answers 304 on a matching ETag, gzip when accepted, no body for HEAD', async () => {
    const { handler: h } = handler();
    const first = await request(h).get('/tokens?limit=40');
    const etag = first.headers.etag!;
    assert.equal((await request(h).get('/tokens?limit=40').set('If-None-Match', etag)).status, 304);
    const gz = await request(h).get('/tokens?limit=40').set('Accept-Encoding', 'gzip').buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers.vary, 'Accept-Encoding');
    const body = gz.body as Buffer;
    const plain = body[0] === 0x1f ? gunzipSync(body).toString() : body.toString(); // supertest may already inflate
    assert.equal(plain, first.text);
    const head = await request(h).head('/tokens?limit=40');
    assert.equal(head.status, 200);
    assert.equal(head.text, undefined);
    const refused = await request(h).get('/tokens?limit=40').set('Accept-Encoding', 'gzip;q=0');
    assert.equal(refused.headers['content-encoding'], undefined);
  });

  it('rate-limits cached answers exactly like the others', async () => {
    const { handler: h } = handler({ rateLimit: { perSecond: 0, perMinute: 3 }, trustProxy: 1 });
    const get = () => request(h).get('/tokens?limit=3').set('X-Forwarded-For', '198.51.100.9');
    assert.equal((await get()).status, 200); // miss: built by the query lane
    const cached = await get(); // hit: fast lane
    assert.equal(cached.status, 200);
    assert.match(cached.headers.ratelimit ?? '', /"per-minute"; r=1/);
    assert.equal((await get()).status, 200);
    const limited = await get();
    assert.equal(limited.status, 429);
    assert.match(limited.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal(limited.body.type, 'urn:token-api:problem:rate-limited');
    const other = await request(h).get('/tokens?limit=3').set('X-Forwarded-For', '198.51.100.10');
    assert.equal(other.status, 200);
  });

  it('never answers a rejected URL from the cache and follows data changes', async () => {
    const { handler: h } = handler();
    assert.equal((await request(h).get('/tokens?limit=0')).status, 400);
    assert.equal((await request(h).get('/tokens?limit=0')).status, 400);
    const before = await request(h).get('/tokens?limit=5&order=name&sort=asc');
    await upsertTokens(db, [{ ...makeTokens(1)[0]!, name: 'Aaa first', at: new Date() }]);
    await catalog.refresh(true);
    const after = await request(h).get('/tokens?limit=5&order=name&sort=asc');
    assert.notEqual(after.text, before.text);
    assert.equal(after.body.data[0].name, 'Aaa first');
  });
});
