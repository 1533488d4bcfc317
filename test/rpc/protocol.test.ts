// JSON-RPC 2.0 protocol behaviour of /rpc: every error code, id echo, batches, notifications,
// limits and HTTP-level choices. Every answer must be JSON (never HTML, never a stack trace).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { openRpcDocument } from '../../src/rpc/index.ts';
import { post, startRpcServer, startStubUpstream, type RawResponse, type RpcServer, type StubUpstream } from './helpers.ts';

const HASH = '0x3fbac8b19b59077cd29bbacc3815d73577b45a4d976cae80b04c98c793684c07';
const TX = { blockHash: `0x${'ab'.repeat(32)}`, blockNumber: '0x3', hash: HASH, to: null, type: '0x0' };

type Err = { jsonrpc: string; id: unknown; error: { code: number; message: string; data?: unknown } };

function expectJson(res: RawResponse): unknown {
  assert.match(res.contentType ?? '', /^application\/json/, `content-type ${res.contentType}`);
  assert.doesNotMatch(res.text, /<html|<!DOCTYPE|\bat .*\.ts:\d+/i);
  return res.json();
}

function expectError(res: RawResponse, code: number, id: unknown = null, status = 200): Err {
  assert.equal(res.status, status, res.text);
  const body = expectJson(res) as Err;
  assert.equal(body.jsonrpc, '2.0');
  assert.deepEqual(body.id, id);
  assert.equal(body.error.code, code, res.text);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(Object.keys(body).sort().join(), 'error,id,jsonrpc');
  return body;
}

describe('/rpc JSON-RPC 2.0 protocol', () => {
  let stub: StubUpstream;
  let rpc: RpcServer;
  let url: string;
  before(async () => {
    stub = await startStubUpstream((call) => {
      if (call.method === 'eth_chainId') return { result: '0xe708' };
      if (call.method === 'eth_getBlockByNumber') return { result: { number: '0x100' } };
      if (call.method === 'eth_getTransactionByHash') return { result: call.params[0] === HASH ? TX : null };
      if (call.method === 'eth_getTransactionByBlockNumberAndIndex') return { result: null };
      return { error: { code: -32601, message: 'nope' } };
    });
    rpc = await startRpcServer({ upstreamUrl: stub.url, maxBatchSize: 5, maxBodyBytes: 4096, bodyTimeoutMs: 300 });
    url = rpc.url;
  });
  after(async () => {
    await rpc.close();
    await stub.close();
  });

  const call = (body: unknown) => post(url, body);
  const req = (method: string, params?: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

  describe('ids are echoed exactly', () => {
    for (const id of [7, 0, -3, 1.5, 'abc', '', null]) {
      it(`id ${JSON.stringify(id)}`, async () => {
        const res = await call(req('eth_chainId', [], id));
        assert.equal(res.status, 200);
        assert.deepEqual(expectJson(res), { jsonrpc: '2.0', id, result: '0xe708' });
      });
    }
    it('id is echoed on an error too', async () => {
      expectError(await call(req('eth_nope', [], 'x-1')), -32601, 'x-1');
    });
  });

  describe('-32700 parse error', () => {
    for (const body of ['{', '{"jsonrpc":"2.0",', 'not json', '', '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},']) {
      it(JSON.stringify(body), async () => {
        expectError(await post(url, body, { raw: true }), -32700, null);
      });
    }
  });

  describe('-32600 invalid request', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['a number', 1, null],
      ['a string', 'eth_chainId', null],
      ['null', null, null],
      ['jsonrpc missing', { id: 1, method: 'eth_chainId' }, 1],
      ['jsonrpc 1.0', { jsonrpc: '1.0', id: 2, method: 'eth_chainId' }, 2],
      ['jsonrpc as number', { jsonrpc: 2.0, id: 3, method: 'eth_chainId' }, 3],
      ['method missing', { jsonrpc: '2.0', id: 4 }, 4],
      ['method not a string', { jsonrpc: '2.0', id: 5, method: 42 }, 5],
      ['params a string', { jsonrpc: '2.0', id: 6, method: 'eth_chainId', params: 'x' }, 6],
      ['params null', { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: null }, 7],
      ['id an object', { jsonrpc: '2.0', id: { a: 1 }, method: 'eth_chainId' }, null],
      ['id an array', { jsonrpc: '2.0', id: [1], method: 'eth_chainId' }, null],
      ['id a boolean', { jsonrpc: '2.0', id: true, method: 'eth_chainId' }, null],
      ['no id and no method (not a notification)', { jsonrpc: '2.0' }, null],
    ];
    for (const [name, body, id] of cases) {
      it(name, async () => {
        expectError(await call(body), -32600, id);
      });
    }
    it('empty batch is a single error object', async () => {
      expectError(await call([]), -32600, null);
    });
    it('a batch of non-objects answers one error per element', async () => {
      const res = await call([1, 2, 3]);
      assert.equal(res.status, 200);
      const body = expectJson(res) as Err[];
      assert.equal(body.length, 3);
      for (const e of body) assert.deepEqual([e.id, e.error.code], [null, -32600]);
    });
  });

  it('-32601 unknown method', async () => {
    const e = expectError(await call(req('eth_sendRawTransaction', ['0x00'])), -32601, 1);
    assert.match(e.error.message, /eth_sendRawTransaction/);
  });

  describe('-32602 invalid params, message names the parameter', () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['no params', 'eth_getTransactionByHash', [], 'transactionHash'],
      ['params omitted', 'eth_getTransactionByHash', undefined, 'transactionHash'],
      ['too many params', 'eth_getTransactionByHash', [HASH, HASH], 'transactionHash'],
      ['hash too short', 'eth_getTransactionByHash', ['0x1234'], 'transactionHash'],
      ['hash 33 bytes', 'eth_getTransactionByHash', [`${HASH}00`], 'transactionHash'],
      ['hash without 0x', 'eth_getTransactionByHash', [HASH.slice(2)], 'transactionHash'],
      ['hash odd length', 'eth_getTransactionByHash', [HASH.slice(0, -1)], 'transactionHash'],
      ['hash not hex', 'eth_getTransactionByHash', [`0x${'zz'.repeat(32)}`], 'transactionHash'],
      ['hash a number', 'eth_getTransactionByHash', [12], 'transactionHash'],
      ['params by name', 'eth_getTransactionByHash', { transactionHash: HASH }, 'by-position'],
      ['bad tag', 'eth_getTransactionByBlockNumberAndIndex', ['newest', '0x0'], 'blockParameter'],
      ['block number with leading zero', 'eth_getTransactionByBlockNumberAndIndex', ['0x01', '0x0'], 'blockParameter'],
      ['block number decimal', 'eth_getTransactionByBlockNumberAndIndex', [1, '0x0'], 'blockParameter'],
      ['index with leading zero', 'eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x00'], 'transactionIndex'],
      ['index without 0x', 'eth_getTransactionByBlockNumberAndIndex', ['latest', '0'], 'transactionIndex'],
      ['index missing', 'eth_getTransactionByBlockNumberAndIndex', ['latest'], 'transactionIndex'],
      ['index too large', 'eth_getTransactionByBlockNumberAndIndex', ['latest', '0x10000000000000000'], 'transactionIndex'],
      ['eth_chainId with a param', 'eth_chainId', ['0x1'], 'eth_chainId'],
    ];
    for (const [name, method, params, mention] of cases) {
      it(name, async () => {
        const e = expectError(await call(req(method, params, 9)), -32602, 9);
        assert.ok(e.error.message.includes(mention), e.error.message);
      });
    }
    it('accepts every block tag and upper-case hex in the hash', async () => {
      for (const tag of ['latest', 'earliest', 'pending', 'finalized', 'safe', '0x0', '0x1b4']) {
        const res = await call(req('eth_getTransactionByBlockNumberAndIndex', [tag, '0x0']));
        assert.deepEqual(expectJson(res), { jsonrpc: '2.0', id: 1, result: null });
      }
      const res = await call(req('eth_getTransactionByHash', [HASH.toUpperCase().replace('0X', '0x')]));
      assert.deepEqual(expectJson(res), { jsonrpc: '2.0', id: 1, result: TX });
    });
  });

  describe('notifications and batches', () => {
    it('a single notification gets 204 and no body', async () => {
      const res = await call({ jsonrpc: '2.0', method: 'eth_chainId' });
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
    });
    it('a batch of only notifications gets 204 and no body (even bad ones)', async () => {
      const res = await call([
        { jsonrpc: '2.0', method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'eth_unknown' },
        { jsonrpc: '2.0', method: 'eth_getTransactionByHash', params: ['0x1'] },
      ]);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
    });
    it('a mixed batch answers good and bad requests in order and skips notifications', async () => {
      const res = await call([
        req('eth_getTransactionByHash', [HASH], 1),
        { jsonrpc: '2.0', method: 'eth_chainId' },
        req('eth_getTransactionByHash', ['0xdead'], 'two'),
        { foo: 'bar' },
        req('eth_nope', [], null),
      ]);
      assert.equal(res.status, 200);
      const body = expectJson(res) as Array<Record<string, unknown>>;
      assert.equal(body.length, 4);
      assert.deepEqual(body[0], { jsonrpc: '2.0', id: 1, result: TX });
      assert.deepEqual([(body[1] as Err).id, (body[1] as Err).error.code], ['two', -32602]);
      assert.deepEqual([(body[2] as Err).id, (body[2] as Err).error.code], [null, -32600]);
      assert.deepEqual([(body[3] as Err).id, (body[3] as Err).error.code], [null, -32601]);
    });
    it('a batch of exactly maxBatchSize is served', async () => {
      const res = await call(Array.from({ length: 5 }, (_, i) => req('eth_chainId', [], i)));
      assert.equal((expectJson(res) as unknown[]).length, 5);
    });
    it('-32005 for a batch larger than maxBatchSize', async () => {
      const e = expectError(await call(Array.from({ length: 6 }, (_, i) => req('eth_chainId', [], i))), -32005, null);
      assert.match(e.error.message, /6.*5/);
    });
  });

  describe('HTTP level', () => {
    it('body larger than maxBodyBytes: HTTP 413 with -32005', async () => {
      const big = JSON.stringify(req('eth_getTransactionByHash', ['x'.repeat(5000)]));
      expectError(await post(url, big, { raw: true }), -32005, null, 413);
    });
    it('a body not received within bodyTimeoutMs: HTTP 408 with -32600, in bounded time', async () => {
      const { hostname, port, pathname } = new URL(url);
      const started = performance.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => {
          // Declares 100 bytes and sends 10, then nothing.
          socket.write(`POST ${pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`);
        });
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (c) => (text += c));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        setTimeout(() => socket.destroy(new Error(`no answer after 5 s: ${text}`)), 5000).unref();
      });
      const ms = performance.now() - started;
      assert.match(answer, /^HTTP\/1\.1 408 /);
      assert.match(answer, /connection: close/i);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Err;
      assert.equal(body.error.code, -32600);
      assert.match(body.error.message, /300 ms/);
      assert.ok(ms >= 280 && ms < 2000, `answered after ${Math.round(ms)} ms`);
    });
    it('server still answers after an oversized body', async () => {
      assert.deepEqual(expectJson(await call(req('eth_chainId', []))), { jsonrpc: '2.0', id: 1, result: '0xe708' });
    });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      it(`Content-Type ${type}: HTTP 415 with -32600`, async () => {
        const e = expectError(await post(url, JSON.stringify(req('eth_chainId', [])), { raw: true, headers: { 'content-type': type } }), -32600, null, 415);
        assert.match(e.error.message, /Content-Type/);
      });
    }
    it('missing Content-Type: HTTP 415', async () => {
      const res = await fetch(url, { method: 'POST', body: new Blob([JSON.stringify(req('eth_chainId', []))]) });
      assert.equal(res.status, 415);
      assert.equal(((await res.json()) as Err).error.code, -32600);
    });
    it('application/json with charset=utf-8 is accepted', async () => {
      const res = await post(url, JSON.stringify(req('eth_chainId', [])), { raw: true, headers: { 'content-type': 'Application/JSON; charset=UTF-8' } });
      assert.equal(res.status, 200);
      assert.deepEqual(expectJson(res), { jsonrpc: '2.0', id: 1, result: '0xe708' });
    });
    it('a non-UTF-8 charset is refused with 415', async () => {
      expectError(await post(url, '{}', { raw: true, headers: { 'content-type': 'application/json; charset=latin1' } }), -32600, null, 415);
    });
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      it(`${method}: HTTP 405 JSON error with Allow: POST`, async () => {
        const res = await post(url, '{}', { method, raw: true });
        const e = expectError(res, -32600, null, 405);
        assert.match(e.error.message, new RegExp(method));
        assert.match(res.headers.get('allow') ?? '', /POST/);
      });
    }
  });

  it('rpc.discover returns spec/openrpc.json', async () => {
    const res = await call(req('rpc.discover', []));
    assert.deepEqual(expectJson(res), { jsonrpc: '2.0', id: 1, result: openRpcDocument() });
    const names = ((res.json() as { result: { methods: Array<{ name: string }> } }).result.methods).map((m) => m.name).sort();
    assert.deepEqual(names, ['eth_chainId', 'eth_getTransactionByBlockNumberAndIndex', 'eth_getTransactionByHash']);
    expectError(await call(req('rpc.discover', ['x'])), -32602, 1);
  });

  it('eth_chainId comes from upstream once and is then cached forever', async () => {
    const before = stub.count('eth_chainId');
    for (let i = 0; i < 3; i++) assert.deepEqual(expectJson(await call(req('eth_chainId'))), { jsonrpc: '2.0', id: 1, result: '0xe708' });
    assert.ok(stub.count('eth_chainId') <= 1, `upstream eth_chainId calls: ${stub.count('eth_chainId')}`);
    assert.equal(stub.count('eth_chainId') - before, before === 0 ? 1 : 0);
  });

  it('invalid requests never reach the upstream node', async () => {
    const before = stub.calls.length;
    await call(req('eth_getTransactionByHash', ['0x12']));
    await call(req('eth_unknown', []));
    await call({ jsonrpc: '2.0', method: 'eth_getTransactionByHash', params: [HASH] }); // notification
    assert.equal(stub.calls.length, before);
  });
});
