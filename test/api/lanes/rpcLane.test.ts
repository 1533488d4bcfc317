// POST /rpc served in front of Express: same answers, headers, limits, logs and metrics as
// through the app, and Express never sees the request.
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { createHttpHandler } from '../../../src/api/createHttpHandler.ts';
import { createMetrics } from '../../../src/api/observability/createMetrics.ts';
import { type Database } from '../../../src/db/index.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { createRpcHandler, rpcPath } from '../../../src/rpc/index.ts';
import { recordExpressRequests, silentLogger } from '../../helpers/testApp.ts';
import { sampleTransaction, startOneTransactionNode, type StubUpstream } from '../../rpc/helpers.ts';

const HASH = `0x${'ab'.repeat(32)}`;
const TX = sampleTransaction(HASH);
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_getTransactionByHash', params: [HASH] });

describe('JSON-RPC lane in front of Express', () => {
  let node: StubUpstream;
  let db: Database;
  before(async () => {
    node = await startOneTransactionNode(TX);
    db = await openPglite();
  });
  after(async () => {
    await node.close();
    await db.close();
  });

  /** The service's handler, with a spy on what reaches Express. */
  function build(extra: Partial<Parameters<typeof createHttpHandler>[0]> = {}) {
    const metrics = createMetrics();
    const rpc = { path: rpcPath, handler: createRpcHandler({ upstreamUrl: node.url, observe: metrics.rpcObserver }) };
    const built = createHttpHandler({ db, logger: silentLogger, metrics, rpc, ...extra });
    const reachedExpress = recordExpressRequests(built.app);
    const handler: RequestListener = built.handler;
    return { handler, app: built.app, metrics, reachedExpress };
  }

  it('answers POST /rpc without Express, with the request id, security and CORS headers and metrics', async () => {
    const { handler, app, metrics, reachedExpress } = build();
    const viaLane = await request(handler).post('/rpc').set('content-type', 'application/json').set('Origin', 'https://dapp.example').send(call(1));
    assert.equal(viaLane.status, 200);
    assert.deepEqual(viaLane.body, { jsonrpc: '2.0', id: 1, result: TX });
    assert.deepEqual(reachedExpress, []);
    const viaExpress = await request(app).post('/rpc').set('content-type', 'application/json').set('Origin', 'https://dapp.example').send(call(1));
    assert.deepEqual(viaExpress.body, viaLane.body);
    for (const name of ['content-type', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options', 'strict-transport-security', 'content-security-policy']) {
      assert.equal(viaLane.headers[name], viaExpress.headers[name], name);
    }
    assert.match(viaLane.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
    assert.equal((await request(handler).post('/rpc').set('X-Request-Id', 'trace-42').set('content-type', 'application/json').send(call(2))).headers['x-request-id'], 'trace-42');
    const text = await metrics.registry.metrics();
    assert.match(text, /http_request_duration_seconds_count\{method="POST",route="\/rpc",status="200"\} 3/);
    assert.match(text, /rpc_calls_total\{method="eth_getTransactionByHash",code="ok"\} 3/);
  });

  it('keeps the envelope rules: 405 for GET, parse errors, 204 for notifications, CORS preflight via Express', async () => {
    const { handler, reachedExpress } = build();
    const get = await request(handler).get('/rpc');
    assert.equal(get.status, 405);
    assert.equal(get.body.error.code, -32600);
    const bad = await request(handler).post('/rpc?x=1').set('content-type', 'application/json').send('{"jsonrpc":');
    assert.equal(bad.status, 200);
    assert.equal(bad.body.error.code, -32700);
    const note = await request(handler).post('/rpc').set('content-type', 'application/json').send({ jsonrpc: '2.0', method: 'eth_chainId' });
    assert.equal(note.status, 204);
    assert.deepEqual(reachedExpress, []);
    const preflight = await request(handler).options('/rpc').set('Origin', 'https://dapp.example').set('Access-Control-Request-Method', 'POST');
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers['access-control-allow-methods'] ?? '', /POST/);
    assert.deepEqual(reachedExpress, ['OPTIONS /rpc']);
  });

  it('rate-limits JSON-RPC like every other route, per client IP', async () => {
    const { handler } = build({ rateLimit: { perSecond: 0, perMinute: 2 }, trustProxy: 1 });
    const post = (ip: string) => request(handler).post('/rpc').set('content-type', 'application/json').set('X-Forwarded-For', ip).send(call(3));
    assert.equal((await post('198.51.100.1')).status, 200);
    const second = await post('198.51.100.1');
    assert.equal(second.status, 200);
    assert.match(second.headers.ratelimit ?? '', /"per-minute"; r=0/);
    const limited = await post('198.51.100.1');
    assert.equal(limited.status, 429);
    assert.match(limited.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(limited.body.type, 'urn:token-api:problem:rate-limited');
    assert.equal(limited.headers['access-control-allow-origin'], '*');
    assert.equal((await post('198.51.100.2')).status, 200);
  });
});
