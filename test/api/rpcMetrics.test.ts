// /metrics after real JSON-RPC traffic: the router's observer is wired to the app's registry.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { createMetrics } from '../../src/api/ops/createMetrics.ts';
import { createDatabase, type Database } from '../../src/db/index.ts';
import { createRpcRouter } from '../../src/rpc/index.ts';
import { testApp } from '../helpers/testApp.ts';

const HASH = `0x${'cd'.repeat(32)}`;
const TX = {
  blockHash: `0x${'11'.repeat(32)}`, blockNumber: '0x5', from: `0x${'22'.repeat(20)}`, gas: '0x5208', gasPrice: '0x1',
  hash: HASH, input: '0x', nonce: '0x0', to: `0x${'33'.repeat(20)}`, transactionIndex: '0x0', value: '0x0', type: '0x0',
  chainId: '0x1', v: '0x25', r: '0x1', s: '0x2',
};

describe('JSON-RPC metrics', () => {
  let node: Server;
  let db: Database;
  before(async () => {
    node = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
        const result =
          call.method === 'eth_getTransactionByHash' ? TX : call.method === 'eth_getBlockByNumber' ? { number: '0x10', hash: `0x${'44'.repeat(32)}` } : null;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }));
      });
    });
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    db = await createDatabase({});
  });
  after(async () => {
    node.close();
    await db.close();
  });

  it('counts calls by method and code, upstream latency and transaction cache lookups', async () => {
    const metrics = createMetrics();
    const upstreamUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
    const app = testApp(db, { metrics, routers: [createRpcRouter({ upstreamUrl, observe: metrics.rpcObserver })] });
    const call = (method: string, params: unknown[]) =>
      request(app).post('/rpc').set('content-type', 'application/json').send({ jsonrpc: '2.0', id: 1, method, params });
    assert.equal((await call('eth_getTransactionByHash', [HASH])).body.result.hash, HASH);
    assert.equal((await call('eth_getTransactionByHash', [HASH])).body.result.hash, HASH);
    assert.equal((await call('eth_getTransactionByHash', ['0x12'])).body.error.code, -32602);
    const text = (await request(app).get('/metrics')).text;
    assert.match(text, /rpc_calls_total\{method="eth_getTransactionByHash",code="ok"\} 2/);
    assert.match(text, /rpc_calls_total\{method="eth_getTransactionByHash",code="-32602"\} 1/);
    assert.match(text, /upstream_node_request_duration_seconds_count\{method="eth_getTransactionByHash",outcome="ok"\} 1/);
    assert.match(text, /cache_lookups_total\{cache="rpc",result="hit"\} 1/);
    assert.match(text, /cache_lookups_total\{cache="rpc",result="miss"\} 1/);
    assert.match(text, /http_request_duration_seconds_count\{method="POST",route="\/rpc",status="200"\} 3/);
  });
});
