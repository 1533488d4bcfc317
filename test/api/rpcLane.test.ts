// POST /rpc served in front of Express: same answers, headers, limits, logs and metrics as
// through the app, and Express never sees the request.
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { createHttpHandler } from '../../src/api/createHttpHandler.ts';
import { createMetrics } from '../../src/api/ops/createMetrics.ts';
import { createDatabase, type Database } from '../../src/db/index.ts';
import { createRpcHandler, rpcPath } from '../../src/rpc/index.ts';
import { silentLogger } from '../helpers/testApp.ts';

const HASH = `0x${'ab'.repeat(32)}`;
const TX = {
  blockHash: `0x${'11'.repeat(32)}`, blockNumber: '0x5', from: `0x${'22'.repeat(20)}`, gas: '0x5208', gasPrice: '0x1',
  hash: HASH, input: '0x', nonce: '0x0', to: `0x${'33'.repeat(20)}`, transactionIndex: '0x0', value: '0x0', type: '0x0',
  chainId: '0x1', v: '0x25', r: '0x1', s: '0x2',
};
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_getTransactionByHash', params: [HASH] });

describe('JSON-RPC lane in front of Express', () => {
  let node: Server;
  let upstreamUrl: string;
  let db: Database;
  before(async () => {
    node = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const msg = JSON.parse(body) as { id: number; method: string };
        const result = msg.method === 'eth_getTransactionByHash' ? TX : msg.method === 'eth_getBlockByNumber' ? { number: '0x10' } : null;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      });
    });
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
    db = await createDatabase({});
  });
  after(async () => {
    node.close();
    await db.close();
  });

  /** The service's handler, with a spy on what reaches Express. */
  function build(extra: Partial<Parameters<typeof createHttpHandler>[0]> = {}) {
    const metrics = createMetrics();
    const rpc = { path: rpcPath, handler: createRpcHandler({ upstreamUrl, observe: metrics.rpcObserver }) };
    const built = createHttpHandler({ db, logger: silentLogger, metrics, rpc, ...extra });
    const reachedExpress: string[] = [];
    // Express's own handle(): anything the lane passes on lands here.
    const express = built.app as unknown as { handle: (req: { method: string; url: string }, ...rest: unknown[]) => unknown };
    const original = express.handle.bind(express);
    express.handle = (rq, ...rest) => {
      reachedExpress.push(`${rq.method} ${rq.url}`);
      return original(rq, ...rest);
    };
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
