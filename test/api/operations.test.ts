// Operating features of the HTTP app: request ids, health, readiness, metrics, caching headers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { upsertTokens, type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { createTokenCatalog, type TokenCatalog } from '../../src/readModel/tokens/createTokenCatalog.ts';
import { createMetrics } from '../../src/api/observability/createMetrics.ts';
import { testApp } from '../helpers/testApp.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

describe('operations', () => {
  let db: Database;
  let catalog: TokenCatalog;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, makeTokens(30));
    // as in production: the catalogue checks the data version in the background only
    catalog = createTokenCatalog({ db, staleMs: 60_000 });
    await catalog.refresh(true);
  });
  after(async () => {
    catalog.stop();
    await db.close();
  });

  it('gives every response a request id and echoes a sane incoming one', async () => {
    const app = testApp(db);
    const fresh = await request(app).get('/tokens?limit=1');
    assert.match(fresh.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
    const echoed = await request(app).get('/tokens?limit=1').set('X-Request-Id', 'trace-123');
    assert.equal(echoed.headers['x-request-id'], 'trace-123');
    const unsafe = await request(app).get('/tokens?limit=1').set('X-Request-Id', 'a b<script>');
    assert.notEqual(unsafe.headers['x-request-id'], 'a b<script>');
  });

  it('answers /healthz and /readyz with the result of each check', async () => {
    const app = testApp(db, { readiness: { indexer: async () => {} } });
    assert.deepEqual((await request(app).get('/healthz')).body, { status: 'ok' });
    const ready = await request(app).get('/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body.checks, { database: 'ok', migrations: 'ok', indexer: 'ok' });
    const lagging = testApp(db, {
      readiness: {
        indexer: async () => {
          throw new Error('lag 500 blocks > 100');
        },
      },
    });
    const notReady = await request(lagging).get('/readyz');
    assert.equal(notReady.status, 503);
    assert.deepEqual(notReady.body.failed, ['indexer']);
    assert.match(notReady.body.checks.indexer, /lag 500 blocks/);
  });

  it('reports a standby indexer in /readyz details and in the indexer_writer_role metric', async () => {
    const app = testApp(db, {
      readiness: { indexer: async () => 'standby: another indexer holds the writer lock' },
      metrics: createMetrics({ indexerRole: () => 'standby' }),
    });
    const ready = await request(app).get('/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.checks.indexer, 'ok');
    assert.deepEqual(ready.body.details, { indexer: 'standby: another indexer holds the writer lock' });
    const metrics = (await request(app).get('/metrics')).text;
    assert.match(metrics, /indexer_writer_role\{role="standby"\} 1/);
    assert.match(metrics, /indexer_writer_role\{role="leader"\} 0/);
  });

  it('counts the indexer\'s failed circulating-supply reads in a metric', async () => {
    let failures = 3;
    const app = testApp(db, { metrics: createMetrics({ indexerCirculatingFailures: () => failures }) });
    assert.match((await request(app).get('/metrics')).text, /\nindexer_circulating_read_failures_total 3\n/);
    failures = 5;
    assert.match((await request(app).get('/metrics')).text, /\nindexer_circulating_read_failures_total 5\n/);
  });

  it("counts the indexer's stored and failed contract checks in a metric", async () => {
    let counts = { stored: 7, failed: 2 };
    const app = testApp(db, { metrics: createMetrics({ indexerContractChecks: () => counts }) });
    const first = (await request(app).get('/metrics')).text;
    assert.match(first, /\nindexer_contract_checks_total\{result="stored"\} 7\n/);
    assert.match(first, /\nindexer_contract_checks_total\{result="failed"\} 2\n/);
    counts = { stored: 11, failed: 2 };
    assert.match((await request(app).get('/metrics')).text, /\nindexer_contract_checks_total\{result="stored"\} 11\n/);
  });

  it('fails readiness when the database is gone', async () => {
    const gone = await openPglite();
    const app = testApp(gone);
    assert.equal((await request(app).get('/readyz')).status, 200);
    await gone.close();
    const res = await request(app).get('/readyz');
    assert.equal(res.status, 503);
    assert.ok(res.body.failed.includes('database'));
    assert.equal((await request(app).get('/healthz')).status, 200, 'the process itself is alive');
  });

  it('exposes request latency per route and status, and cache lookups', async () => {
    const metrics = createMetrics({ indexerLag: () => ({ lagBlocks: 3, lagSeconds: 6 }) });
    const app = testApp(db, { metrics, catalog });
    await request(app).get('/tokens?limit=2');
    await request(app).get('/tokens?limit=2');
    await request(app).get(`/tokens/${addressOf(3)}`);
    await request(app).get('/tokens?page=0');
    metrics.rpcObserver.call('eth_getTransactionByHash', null, 0.001);
    metrics.rpcObserver.call('eth_getTransactionByHash', -32602, 0.001);
    metrics.rpcObserver.upstream('eth_getTransactionByHash', false, 0.2);
    metrics.rpcObserver.cacheLookup(true);
    const text = (await request(app).get('/metrics')).text;
    assert.match(text, /http_request_duration_seconds_count\{method="GET",route="\/tokens",status="200"\} 2/);
    assert.match(text, /http_request_duration_seconds_count\{method="GET",route="\/tokens\/:contractAddress",status="200"\} 1/);
    assert.match(text, /http_request_duration_seconds_count\{method="GET",route="\/tokens",status="400"\} 1/);
    assert.match(text, /cache_lookups_total\{cache="response",result="hit"\} 1/);
    assert.match(text, /cache_lookups_total\{cache="rpc",result="hit"\} 1/);
    assert.match(text, /rpc_calls_total\{method="eth_getTransactionByHash",code="-32602"\} 1/);
    assert.match(text, /upstream_node_errors_total\{method="eth_getTransactionByHash"\} 1/);
    assert.match(text, /indexer_head_lag_blocks 3/);
    assert.match(text, /indexer_head_lag_seconds 6/);
    assert.doesNotMatch(text, /0x0000000000000000000000000000000000000004/, 'no raw URLs as labels');
  });

  it('answers 304 on a matching ETag, and a new ETag once the data changes', async () => {
    const app = testApp(db, { catalog });
    const first = await request(app).get('/tokens?limit=5&order=name&sort=asc');
    const etag = first.headers.etag;
    assert.ok(etag);
    assert.equal(first.headers['cache-control'], 'public, max-age=5');
    const again = await request(app).get('/tokens?limit=5&order=name&sort=asc').set('If-None-Match', etag);
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    const tokens = makeTokens(1).map((t) => ({ ...t, name: 'Renamed', at: new Date() }));
    await upsertTokens(db, tokens);
    await catalog.refresh(true);
    const unchanged = await request(app).get('/tokens?limit=5&order=name&sort=desc');
    const unchangedAgain = await request(app).get('/tokens?limit=5&order=name&sort=desc').set('If-None-Match', unchanged.headers.etag!);
    assert.equal(unchangedAgain.status, 304, 'a page whose content did not change keeps its ETag');
    const changed = await request(app).get('/tokens?limit=5&order=name&sort=asc').set('If-None-Match', etag);
    assert.equal(changed.status, 200, 'the renamed token moved to the first page, so the old ETag no longer matches');
    assert.notEqual(changed.headers.etag, etag);
    assert.equal(changed.body.data[0].name, 'Renamed');
  });

  it('never serves a rejected URL from the cache', async () => {
    const app = testApp(db, { catalog });
    assert.equal((await request(app).get('/tokens?limit=101')).status, 400);
    assert.equal((await request(app).get('/tokens?limit=101')).status, 400);
  });

  it('sends CORS, security headers and compresses large answers', async () => {
    const res = await request(testApp(db)).get('/tokens?limit=30').set('Origin', 'https://dapp.example').set('Accept-Encoding', 'gzip');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers['x-powered-by'], undefined);
    const preflight = await request(testApp(db)).options('/rpc').set('Origin', 'https://dapp.example').set('Access-Control-Request-Method', 'POST');
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers['access-control-allow-methods'] ?? '', /POST/);
  });
});
