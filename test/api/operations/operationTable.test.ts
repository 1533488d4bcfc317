// The operation table is the one place routes come from: it is what the generator makes of the
// spec, Express routes exactly its operations, the lanes read URLs with it, and every operation
// answers 429 with the headers the spec declares (the responses are checked against the spec).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { renderOperationTable } from '../../../scripts/generate/15-openapi-operations.ts';
import { operationIds, operations } from '../../../src/spec/operationTable.ts';
import { matchOperation } from '../../../src/api/operations/matchOperation.ts';
import { upsertTokens, type Database } from '../../../src/db/index.ts';
import { readOpenApiDocument, type OpenApiDocument } from '../../../src/spec/readOpenApiDocument.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { everyOperation } from '../../helpers/operationUrls.ts';
import { testApp } from '../../helpers/testApp.ts';
import { addressOf, makeTokens } from '../../helpers/tokenFixtures.ts';

const root = resolve(import.meta.dirname, '..', '..', '..');
const token = addressOf(2);

type Layer = { route?: { path: string; methods: Record<string, boolean> } };

describe('the operation table', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, makeTokens(5));
  });
  after(() => db.close());

  it('is what the generator makes of spec/openapi.yaml (npm run generate)', () => {
    const { json, types } = renderOperationTable(readOpenApiDocument());
    assert.equal(readFileSync(join(root, 'generated', 'openapi', 'operations.json'), 'utf8'), json);
    assert.equal(readFileSync(join(root, 'generated', 'openapi', 'operations.ts'), 'utf8'), types);
  });

  it('refuses a spec the server cannot route', () => {
    const spec = readOpenApiDocument();
    const broken = (change: (doc: OpenApiDocument & { paths: Record<string, Record<string, Record<string, unknown>>> }) => void) => {
      const doc = structuredClone(spec) as OpenApiDocument & { paths: Record<string, Record<string, Record<string, unknown>>> };
      change(doc);
      return () => renderOperationTable(doc);
    };
    assert.throws(broken((d) => void delete d.paths['/tokens']!.get!['x-answer']), /GET \/tokens: x-answer.from/);
    assert.throws(broken((d) => void (d.paths['/tokens']!.get!['x-answer'] = { from: 'catalogue', cacheable: true, clock: 'minute' })), /x-answer.clock/);
    assert.throws(broken((d) => void (d.paths['/tokens']!.get!['x-answer'] = { from: 'catalogue', cacheable: 'yes', clock: 'none' })), /x-answer.cacheable/);
    assert.throws(broken((d) => void (d.paths['/tokens']!.get!.operationId = 'getToken')), /getToken is used twice/);
    assert.throws(broken((d) => void (d.paths['/tokens']!.post = d.paths['/tokens']!.get!)), /POST \/tokens: only get/);
  });

  it('is what Express routes: each operation once, at its route, and no other API route', () => {
    const app = testApp(db);
    const stack = (app.parts.app as unknown as { router: { stack: Layer[] } }).router.stack;
    const routes = stack.filter((l) => l.route?.methods.get).map((l) => `${Object.keys(l.route!.methods).join()} ${l.route!.path}`);
    assert.deepEqual(routes.sort(), operationIds.map((id) => `get ${operations[id].route}`).sort());
  });

  it('reads each operation from its URL as the spec writes it, and nothing else', () => {
    for (const { id, url } of everyOperation(token)) {
      const match = matchOperation(url);
      assert.equal(match?.id, id, url);
      assert.deepEqual(match.pathParams, operations[id].path.includes('{') ? { contractAddress: token } : {}, url);
    }
    for (const odd of ['/tokens/', `/tokens/${token}/`, '/TOKENS', '//tokens', `/tokens//pools`, `/tokens/${token}/pools/x`, '/prices/', '/supply', '/nope']) {
      assert.equal(matchOperation(odd), undefined, odd);
    }
  });

  it('answers 429 problem+json with Retry-After and the RateLimit headers on every operation, as the spec declares', async () => {
    const app = testApp(db, { rateLimit: { perSecond: 0, perMinute: 1 }, trustProxy: 1 });
    for (const [i, { id, url }] of everyOperation(token).entries()) {
      const client = `198.51.100.${i + 1}`;
      await request(app).get(url).set('X-Forwarded-For', client);
      const limited = await request(app).get(url).set('X-Forwarded-For', client);
      assert.equal(limited.status, 429, `${id}: ${limited.status} ${limited.text}`); // a spec violation would be a 500
      assert.equal(limited.body.type, 'urn:token-api:problem:rate-limited', id);
      assert.match(limited.headers['retry-after'] ?? '', /^[1-9]\d*$/, id);
      assert.match(limited.headers.ratelimit ?? '', /^"per-minute"; r=0; t=\d+$/, id);
      assert.equal(limited.headers['ratelimit-policy'], '"per-minute"; q=1; w=60', id);
      const declared = readOpenApiDocument().paths[operations[id].path]!.get!.responses!['429'];
      assert.ok(declared, `${id} declares 429`);
    }
  });
});
