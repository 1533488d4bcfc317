// Query parameters an operation does not declare are ignored and named (issue 37): the answer is
// the one without them, X-Ignored-Parameters lists them (each once, encoded, bounded), the
// response cache keys answers on the declared parameters only, declared parameters keep every
// bound and its 400, malformed forms of declared names stay 400s, and STRICT_QUERY_PARAMETERS
// brings back the 400 naming each undeclared parameter. Through the lane and Express alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { upsertTokens, type Database } from '../../src/db/index.ts';
import { declaredTarget, MAX_LISTED_NAME_CHARS } from '../../src/api/operations/undeclaredQuery.ts';
import { openPglite } from '../helpers/pglite.ts';
import { recordExpressRequests, testApp } from '../helpers/testApp.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const ISSUE_URL = '/tokens?limit=5&page=1&includePrice=true&query=usd&_=123';
const HEADER = 'x-ignored-parameters';

describe('undeclared query parameters', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, makeTokens(30));
  });
  after(() => db.close());

  it("the issue's request: 200, the body of /tokens?limit=5&page=1, the three ignored names", async () => {
    const plain = await request(testApp(db)).get('/tokens?limit=5&page=1').expect(200);
    assert.equal(plain.headers[HEADER], undefined);
    const app = testApp(db);
    const reached = recordExpressRequests(app.parts.app);
    const res = await request(app).get(ISSUE_URL).expect(200);
    assert.equal(res.text, plain.text);
    assert.equal(res.body.data.length, 5);
    assert.equal(res.headers[HEADER], 'includePrice, query, _');
    assert.deepEqual(reached, [], 'answered by the lane');
    const cors = await request(app).get(ISSUE_URL).set('Origin', 'https://dapp.example').expect(200);
    assert.match(cors.headers['access-control-expose-headers'] ?? '', /X-Ignored-Parameters/, 'readable by browser clients');
    // Express answers alike (a declared value percent-encoded goes past the lane)
    const viaExpress = await request(app).get('/tokens?limit=%35&page=1&includePrice=true&query=usd&_=123').expect(200);
    assert.equal(reached.length, 1);
    assert.equal(viaExpress.text, plain.text);
    assert.equal(viaExpress.headers[HEADER], 'includePrice, query, _');
  });

  it('the response cache keys on the declared parameters: another cache-buster is a hit, and the header is per request', async () => {
    const app = testApp(db);
    const first = await request(app).get('/tokens?limit=4&_=1').expect(200);
    assert.ok(app.parts.responseCache.lookup('/tokens?limit=4'), 'stored under the declared parameters');
    const reached = recordExpressRequests(app.parts.app);
    const second = await request(app).get('/tokens?limit=4&_=2&foo').expect(200);
    assert.equal(second.text, first.text);
    assert.equal(second.headers.etag, first.headers.etag);
    assert.equal(second.headers[HEADER], '_, foo');
    assert.match(await app.parts.metrics.registry.metrics(), /cache_lookups_total\{cache="response",result="hit"\} 2/);
    const clean = await request(app).get('/tokens?limit=4').expect(200);
    assert.equal(clean.headers[HEADER], undefined, 'a stored answer does not replay the header');
    await request(app).get('/tokens?limit=4&_=3').set('If-None-Match', first.headers.etag!).expect(304).expect(HEADER, '_');
    assert.deepEqual(reached, []);
    // keys: the URL itself when everything is declared
    assert.equal(declaredTarget('/tokens?limit=4&page=2'), '/tokens?limit=4&page=2');
    assert.equal(declaredTarget('/tokens?_=1&limit=4&x&page=2'), '/tokens?limit=4&page=2');
    assert.equal(declaredTarget('/tokens?_=1'), '/tokens');
  });

  it('a bad value of a declared parameter is still a 400 naming it, with the ignored names', async () => {
    for (const url of ['/tokens?limit=500&_=1', '/tokens?limit=0x10&_=1', '/tokens?_=1&limit=%205']) {
      const res = await request(testApp(db)).get(url).expect(400);
      assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['limit'], url);
      assert.equal(res.headers[HEADER], '_', url);
    }
    const other = await request(testApp(db)).get(`/prices/${addressOf(1)}/candles?interval=2m&limit=5`).expect(400);
    assert.deepEqual(other.body.errors.map((e: { field: string }) => e.field), ['interval']);
    assert.equal(other.headers[HEADER], 'limit');
  });

  it('malformed forms of declared names stay 400s; undeclared names in any form are ignored', async () => {
    const refused: [string, string][] = [
      ['/tokens?addresses', 'addresses'], // a declared name without a value
      [`/tokens?addresses[a]=${addressOf(1)}`, 'addresses[a]'], // a declared name with brackets
      ['/tokens?page%5B%5D=1', 'page[]'],
    ];
    for (const [url, field] of refused) {
      const res = await request(testApp(db)).get(url).expect(400);
      assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), `${url}: ${JSON.stringify(res.body.errors)}`);
    }
    // a pair without a name: express-openapi-validator's 400, as before
    const nameless = await request(testApp(db)).get('/tokens?=1').expect(400);
    assert.match(nameless.body.detail, /Unknown query parameter ''/);
    const all = (await request(testApp(db)).get('/tokens').expect(200)).text;
    const ignored: [string, string][] = [
      ['/tokens?x', 'x'], // without '='
      ['/tokens?foo[a]=1&foo[]=2', 'foo[a], foo[]'], // brackets on an undeclared name
      ['/tokens?PAGE=2', 'PAGE'], // names are matched exactly
      ['/tokens?_=1&_=2&_', '_'], // repeated: listed once
      ['/tokens?%5F=1', '_'], // decoded as the query parser decodes it
      ['/tokens?a%2Cb=1&c+d=2&%C3%A9=3', 'a%2Cb, c%20d, %C3%A9'], // never a comma, space or '+' inside an item
      ['/tokens?&&_=1&', '_'],
    ];
    for (const [url, header] of ignored) {
      const res = await request(testApp(db)).get(url).expect(200);
      assert.equal(res.text, all, url);
      assert.equal(res.headers[HEADER], header, url);
    }
  });

  it('the header is bounded: at most 10 names, each cut to 64 characters, then +N', async () => {
    const names = Array.from({ length: 15 }, (_, i) => `p${i}`);
    const res = await request(testApp(db)).get(`/tokens?${names.map((n) => `${n}=1`).join('&')}&limit=2`).expect(200);
    assert.equal(res.body.data.length, 2);
    assert.equal(res.headers[HEADER], `${names.slice(0, 10).join(', ')}, +5`);
    const long = 'n'.repeat(200);
    const cut = await request(testApp(db)).get(`/tokens?${long}=1&%E2%82%AC${'e'.repeat(100)}=2`).expect(200);
    assert.deepEqual(cut.headers[HEADER]!.split(', '), ['n'.repeat(MAX_LISTED_NAME_CHARS), `%E2%82%AC${'e'.repeat(MAX_LISTED_NAME_CHARS - 9)}`]);
  });

  it('every operation ignores what it does not declare (a parameter of another operation too)', async () => {
    const token = addressOf(3);
    const one = await request(testApp(db)).get(`/tokens/${token}`).expect(200);
    const res = await request(testApp(db)).get(`/tokens/${token}?limit=1&includePrice=true`).expect(200);
    assert.equal(res.text, one.text);
    assert.equal(res.headers[HEADER], 'limit, includePrice');
    // as Express routes it too: a trailing slash
    const slash = await request(testApp(db)).get(`/tokens/?limit=2&_=1`).expect(200);
    assert.equal(slash.body.data.length, 2);
    assert.equal(slash.headers[HEADER], '_');
  });

  it('with STRICT_QUERY_PARAMETERS the old 400 names each undeclared parameter', async () => {
    const app = testApp(db, { strictQueryParameters: true });
    const res = await request(app).get(ISSUE_URL).expect(400);
    assert.equal(res.headers[HEADER], undefined);
    // express-openapi-validator's 400, as before: it names the first unknown parameter
    assert.match(res.body.detail, /Unknown query parameter 'includePrice'/);
    // a stored answer of the declared URL does not answer a request with more
    await request(app).get('/tokens?limit=5&page=1').expect(200);
    await request(app).get('/tokens?limit=5&page=1&_=1').expect(400);
    const bare = await request(app).get('/tokens?x').expect(400);
    assert.deepEqual(bare.body.errors.map((e: { field: string }) => e.field), ['x']);
    assert.match(bare.body.detail, /must be given as name=value/);
  });
});
