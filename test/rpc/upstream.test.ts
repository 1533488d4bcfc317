// Upstream node failures become clear JSON-RPC errors (documented codes -32050..-32053), the
// node's own JSON-RPC errors pass through with code/message/data, and /rpc recovers as soon as
// the node is healthy again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createChainClient, HttpStatusError, InvalidResponseError, JsonRpcResponseError, NodeUnreachableError, RpcTimeoutError,
} from '../../src/chain/index.ts';
import { closedPort, post, startRpcServer, startStubUpstream, type RpcServer, type StubReply, type StubUpstream } from './helpers.ts';

const HASH = `0x${'11'.repeat(32)}`;
const TX = { blockNumber: '0x5', hash: HASH, to: null };
const lookup = { jsonrpc: '2.0', id: 42, method: 'eth_getTransactionByHash', params: [HASH] };
type Body = { id: unknown; result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe('upstream failures through /rpc', () => {
  let stub: StubUpstream;
  let rpc: RpcServer;
  let mode: (() => StubReply) | undefined;
  const healthy = (): StubReply => ({ result: TX });
  before(async () => {
    stub = await startStubUpstream((call) => {
      if (call.method === 'eth_getBlockByNumber') return { result: { number: '0x1' } }; // tx not final: never cached
      return (mode ?? healthy)();
    });
    rpc = await startRpcServer({ upstreamUrl: stub.url, upstreamTimeoutMs: 300 });
  });
  after(async () => {
    await rpc.close();
    await stub.close();
  });

  async function expectUpstreamError(code: number): Promise<Body['error'] & object> {
    const res = await post(rpc.url, lookup);
    assert.equal(res.status, 200);
    assert.match(res.contentType ?? '', /^application\/json/);
    const body = res.json() as Body;
    assert.equal(body.id, 42);
    assert.ok(body.error, res.text);
    assert.equal(body.error.code, code, res.text);
    return body.error;
  }

  async function expectRecovered(): Promise<void> {
    mode = undefined;
    const res = await post(rpc.url, lookup);
    assert.deepEqual(res.json(), { jsonrpc: '2.0', id: 42, result: TX });
  }

  it('timeout: -32050, then recovers', async () => {
    mode = () => ({ hang: true });
    const started = Date.now();
    const e = await expectUpstreamError(-32050);
    assert.equal(e.message, 'Upstream node timeout');
    assert.ok(Date.now() - started < 3000);
    await expectRecovered();
  });

  it('HTTP 500: -32052 with the status, then recovers', async () => {
    mode = () => ({ status: 500, body: 'Internal Server Error' });
    const e = await expectUpstreamError(-32052);
    assert.equal(e.data?.status, 500);
    await expectRecovered();
  });

  it('HTTP 502 with an HTML body: -32052, the HTML is not forwarded', async () => {
    mode = () => ({ status: 502, body: '<html><body>Bad Gateway</body></html>' });
    await expectUpstreamError(-32052);
    const res = await post(rpc.url, lookup);
    assert.doesNotMatch(res.text, /<html/);
    await expectRecovered();
  });

  for (const [name, body] of [
    ['non-JSON garbage', 'garbage\u0000\u0001'],
    ['JSON that is not JSON-RPC', '{"hello":"world"}'],
    ['a JSON array', '[1,2]'],
  ] as const) {
    it(`${name}: -32053, then recovers`, async () => {
      mode = () => ({ status: 200, body });
      await expectUpstreamError(-32053);
      await expectRecovered();
    });
  }

  it("the node's JSON-RPC error passes through with code, message and data", async () => {
    mode = () => ({ error: { code: -32000, message: 'header not found', data: { hint: 'x' } } });
    const e = await expectUpstreamError(-32000);
    assert.equal(e.message, 'header not found');
    assert.deepEqual(e.data, { hint: 'x' });
    mode = () => ({ error: { code: 4444, message: 'Pruned history unavailable' } });
    const e2 = await expectUpstreamError(4444);
    assert.equal(e2.message, 'Pruned history unavailable');
    assert.equal('data' in e2, false);
    await expectRecovered();
  });

  it('connection refused: -32051, then recovers when the node comes back on that port', async () => {
    const port = await closedPort();
    const down = await startRpcServer({ upstreamUrl: `http://127.0.0.1:${port}`, upstreamTimeoutMs: 1000 });
    try {
      const res = await post(down.url, lookup);
      const body = res.json() as Body;
      assert.equal(res.status, 200);
      assert.equal(body.error?.code, -32051);
      assert.equal(body.error?.data?.errno, 'ECONNREFUSED');
      const back = await startStubUpstream((call) => (call.method === 'eth_getBlockByNumber' ? { result: { number: '0x1' } } : { result: TX }), port);
      try {
        assert.deepEqual((await post(down.url, lookup)).json(), { jsonrpc: '2.0', id: 42, result: TX });
      } finally {
        await back.close();
      }
    } finally {
      await down.close();
    }
  });

  it('a failure inside a batch only affects that element', async () => {
    let n = 0;
    mode = () => (n++ === 0 ? { status: 500, body: 'boom' } : { result: TX });
    // Different ids but identical params would be merged by single flight: use two hashes.
    const other = `0x${'22'.repeat(32)}`;
    const res = await post(rpc.url, [lookup, { ...lookup, id: 43, params: [other] }]);
    const body = res.json() as Body[];
    assert.equal(body.length, 2);
    const codes = body.map((b) => b.error?.code ?? 'ok').sort();
    assert.deepEqual(codes, [-32052, 'ok']);
    mode = undefined;
  });
});

describe('the node client without retries (as POST /rpc uses it): error classes', () => {
  it('maps each failure to its class and reports to observe()', async () => {
    const seen: Array<[string, boolean]> = [];
    let reply: StubReply = { result: '0x1' };
    const stub = await startStubUpstream(() => reply);
    const client = createChainClient({ url: stub.url, timeoutMs: 200, maxRetries: 0, observe: (m, ok, s) => { assert.ok(s >= 0); seen.push([m, ok]); } });
    try {
      assert.equal(await client.request('eth_chainId'), '0x1');
      reply = { hang: true };
      await assert.rejects(client.request('eth_chainId'), (e: unknown) => e instanceof RpcTimeoutError && e.timeoutMs === 200);
      reply = { status: 503, body: 'x' };
      await assert.rejects(client.request('eth_chainId'), (e: unknown) => e instanceof HttpStatusError && e.status === 503);
      reply = { status: 200, body: 'nope' };
      await assert.rejects(client.request('eth_chainId'), InvalidResponseError);
      reply = { status: 200, body: '{"jsonrpc":"2.0","id":999999,"result":"0x1"}' };
      await assert.rejects(client.request('eth_chainId'), /does not match/);
      reply = { error: { code: -32602, message: 'bad', data: '0x' } };
      await assert.rejects(client.request('eth_chainId'), (e: unknown) => e instanceof JsonRpcResponseError && e.code === -32602 && e.nodeError?.message === 'bad' && e.nodeError.data === '0x');
      reply = { result: { raw: ['kept', 1] } };
      assert.deepEqual(await client.request('eth_x'), { raw: ['kept', 1] });
    } finally {
      await stub.close();
    }
    const port = await closedPort();
    await assert.rejects(
      createChainClient({ url: `http://127.0.0.1:${port}`, maxRetries: 0 }).request('eth_chainId'),
      (e: unknown) => e instanceof NodeUnreachableError && e.code === 'ECONNREFUSED',
    );
    assert.deepEqual(seen, [
      ['eth_chainId', true], ['eth_chainId', false], ['eth_chainId', false], ['eth_chainId', false],
      ['eth_chainId', false], ['eth_chainId', false], ['eth_x', true],
    ]);
  });
});

describe('createRpcRouter options', () => {
  it('rejects a malformed or non-HTTP upstream URL at startup', async () => {
    const { createRpcRouter } = await import('../../src/rpc/index.ts');
    assert.throws(() => createRpcRouter({ upstreamUrl: 'not a url' }));
    assert.throws(() => createRpcRouter({ upstreamUrl: 'ws://127.0.0.1:8546' }), /http/);
  });

  it('reports every call and every upstream request to observe', async () => {
    const calls: Array<[string, number | null]> = [];
    const upstream: Array<[string, boolean]> = [];
    const stub = await startStubUpstream((call) =>
      call.method === 'eth_chainId' ? { result: '0x1' } : { error: { code: -32000, message: 'x' } },
    );
    const rpc = await startRpcServer({
      upstreamUrl: stub.url,
      observe: { call: (m, code, s) => { assert.ok(s >= 0); calls.push([m, code]); }, upstream: (m, ok) => upstream.push([m, ok]) },
    });
    try {
      await post(rpc.url, [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'eth_getTransactionByHash', params: [HASH] },
        { jsonrpc: '2.0', id: 3, method: 'no_such_method' },
        { jsonrpc: '2.0', id: 4 },
      ]);
      await post(rpc.url, '{', { raw: true });
      assert.deepEqual(calls.sort(), [
        ['eth_chainId', null],
        ['eth_getTransactionByHash', -32000],
        ['invalid', -32600],
        ['invalid', -32700],
        ['unknown', -32601],
      ]);
      assert.deepEqual(upstream.sort(), [['eth_chainId', true], ['eth_getTransactionByHash', false]]);
    } finally {
      await rpc.close();
      await stub.close();
    }
  });
});
