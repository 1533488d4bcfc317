// /metrics after real JSON-RPC traffic: the router's observer is wired to the app's registry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { createMetrics } from '../../src/api/observability/createMetrics.ts';
import { type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { createRpcRouter } from '../../src/rpc/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { sampleTransaction, startOneTransactionNode, type StubUpstream } from '../rpc/helpers.ts';

const HASH = `0x${'cd'.repeat(32)}`;
const TX = sampleTransaction(HASH);

describe('JSON-RPC metrics', () => {
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

  it('counts calls by method and code, upstream latency and transaction cache lookups', async () => {
    const metrics = createMetrics();
    const upstreamUrl = node.url;
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
