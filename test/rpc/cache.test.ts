// Caching rule: only non-null transactions in blocks at or below the finalized block are kept;
// tag-based, not-yet-final and null answers always hit the node; identical concurrent lookups
// share one upstream call.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { post, startRpcServer, startStubUpstream, type RpcServer, type StubCall, type StubReply, type StubUpstream } from './helpers.ts';

const hash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const tx = (n: number, blockNumber: string | null) => ({ hash: hash(n), blockNumber, blockHash: blockNumber && hash(1000 + n), to: null, type: '0x2' });
const byHash = (n: number, id: unknown = 1) => ({ jsonrpc: '2.0', id, method: 'eth_getTransactionByHash', params: [hash(n)] });
const byNumber = (block: string, index = '0x0', id: unknown = 1) => ({ jsonrpc: '2.0', id, method: 'eth_getTransactionByBlockNumberAndIndex', params: [block, index] });

describe('/rpc caching', () => {
  let stub: StubUpstream;
  let rpc: RpcServer;
  let finalized: (call: StubCall) => StubReply;
  // Transactions 1..9 sit in block n; 50 is in block 0x200 (above finalized); 60 pending; others unknown.
  const chain = (call: StubCall): StubReply => {
    if (call.method === 'eth_getBlockByNumber') return finalized(call);
    if (call.method === 'eth_blockNumber') return { result: '0x1000' };
    if (call.method === 'eth_getTransactionByHash') {
      const n = Number(BigInt(call.params[0] as string));
      if (n >= 1 && n <= 9) return { result: tx(n, `0x${n.toString(16)}`) };
      if (n === 50) return { result: tx(50, '0x200') };
      if (n === 60) return { result: tx(60, null) };
      return { result: null };
    }
    if (call.method === 'eth_getTransactionByBlockNumberAndIndex') {
      const [block] = call.params as [string];
      if (block === '0x999') return { result: null };
      return { result: tx(7, block.startsWith('0x') ? block : '0x3') };
    }
    return { error: { code: -32601, message: 'no' } };
  };

  beforeEach(async () => {
    finalized = () => ({ result: { number: '0x100' } });
    stub = await startStubUpstream(chain);
    rpc = await startRpcServer({ upstreamUrl: stub.url, finalizedTtlMs: 60_000 });
  });
  afterEach(async () => {
    await rpc.close();
    await stub.close();
  });

  const send = async (body: unknown): Promise<unknown> => (await post(rpc.url, body)).json();

  it('a finalized transaction by hash is served from cache the second time', async () => {
    const first = await send(byHash(3, 'a'));
    const second = await send(byHash(3, 'b'));
    assert.deepEqual(first, { jsonrpc: '2.0', id: 'a', result: tx(3, '0x3') });
    assert.deepEqual(second, { jsonrpc: '2.0', id: 'b', result: tx(3, '0x3') });
    assert.equal(stub.count('eth_getTransactionByHash'), 1);
    // Upper-case spelling of the same hash hits the same entry.
    await send({ ...byHash(3), params: [hash(3).toUpperCase().replace('0X', '0x')] });
    assert.equal(stub.count('eth_getTransactionByHash'), 1);
  });

  it('the finalized block number is fetched once per TTL, not per lookup', async () => {
    for (let n = 1; n <= 5; n++) await send(byHash(n));
    assert.equal(stub.count('eth_getBlockByNumber'), 1);
    assert.deepEqual(stub.calls.find((c) => c.method === 'eth_getBlockByNumber')?.params, ['finalized', false]);
  });

  it('a transaction above the finalized block is not cached', async () => {
    await send(byHash(50));
    await send(byHash(50));
    assert.equal(stub.count('eth_getTransactionByHash'), 2);
  });

  it('a pending transaction and a null answer are not cached', async () => {
    await send(byHash(60));
    await send(byHash(60));
    await send(byHash(70));
    await send(byHash(70));
    assert.equal(stub.count('eth_getTransactionByHash'), 4);
  });

  it('tag-based lookups always hit the node', async () => {
    for (const tag of ['latest', 'latest', 'finalized', 'safe', 'earliest', 'pending']) await send(byNumber(tag));
    assert.equal(stub.count('eth_getTransactionByBlockNumberAndIndex'), 6);
  });

  it('numeric lookups are cached only for finalized blocks with a result', async () => {
    await send(byNumber('0x3'));
    await send(byNumber('0x3'));
    assert.equal(stub.count('eth_getTransactionByBlockNumberAndIndex'), 1);
    await send(byNumber('0x3', '0x1'));
    assert.equal(stub.count('eth_getTransactionByBlockNumberAndIndex'), 2, 'another index is another key');
    await send(byNumber('0x200'));
    await send(byNumber('0x200'));
    assert.equal(stub.count('eth_getTransactionByBlockNumberAndIndex'), 4, 'above finalized');
    await send(byNumber('0x999'));
    await send(byNumber('0x999'));
    assert.equal(stub.count('eth_getTransactionByBlockNumberAndIndex'), 6, 'null answers');
  });

  it('concurrent identical lookups make one upstream call', async () => {
    stub.respond = (call) => ({ delayMs: 150, then: chain(call) });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(byHash(50, i))));
    assert.equal(stub.count('eth_getTransactionByHash'), 1);
    answers.forEach((a, i) => assert.deepEqual(a, { jsonrpc: '2.0', id: i, result: tx(50, '0x200') }));
    // Also inside one batch.
    const batch = (await post(rpc.url, Array.from({ length: 10 }, (_, i) => byNumber('latest', '0x0', i)))).json() as unknown[];
    assert.equal(batch.length, 10);
    assert.equal(stub.count('eth_getTransactionByBlockNumberAndIndex'), 1);
  });

  it('falls back to latest - 64 confirmations when the node does not know "finalized"', async () => {
    finalized = () => ({ error: { code: -39001, message: 'Unknown block' } });
    // latest is 0x1000 = 4096: block 5 is final, block 0x200 too; 0xfd0 (4048) is not.
    await send(byHash(5));
    await send(byHash(5));
    assert.equal(stub.count('eth_getTransactionByHash'), 1);
    assert.equal(stub.count('eth_blockNumber'), 1);
    await send(byNumber('0xfd0'));
    await send(byNumber('0xfd0'));
    assert.equal(stub.count('eth_getTransactionByBlockNumberAndIndex'), 2);
  });

  it('when finality cannot be determined nothing is cached, and lookups still succeed', async () => {
    finalized = () => ({ status: 500, body: 'down' });
    assert.deepEqual(await send(byHash(3)), { jsonrpc: '2.0', id: 1, result: tx(3, '0x3') });
    assert.deepEqual(await send(byHash(3)), { jsonrpc: '2.0', id: 1, result: tx(3, '0x3') });
    assert.equal(stub.count('eth_getTransactionByHash'), 2);
  });
});

describe('/rpc cache bound', () => {
  it('evicts least recently used entries beyond cacheSize', async () => {
    const stub = await startStubUpstream((call) =>
      call.method === 'eth_getBlockByNumber' ? { result: { number: '0x100' } } : { result: tx(Number(BigInt(call.params[0] as string)), '0x1') },
    );
    const rpc = await startRpcServer({ upstreamUrl: stub.url, cacheSize: 2 });
    try {
      for (const n of [1, 2, 3, 1]) await post(rpc.url, byHash(n));
      assert.equal(stub.count('eth_getTransactionByHash'), 4, '1 was evicted by 3');
      await post(rpc.url, byHash(3));
      assert.equal(stub.count('eth_getTransactionByHash'), 4, '3 is still cached');
    } finally {
      await rpc.close();
      await stub.close();
    }
  });
});

describe('/rpc with cacheSize 0', () => {
  it('never caches and never asks for the finalized block', async () => {
    const stub = await startStubUpstream((call) =>
      call.method === 'eth_getBlockByNumber' ? { result: { number: '0x100' } } : { result: tx(1, '0x1') },
    );
    const rpc = await startRpcServer({ upstreamUrl: stub.url, cacheSize: 0 });
    try {
      for (let i = 0; i < 3; i++) await post(rpc.url, byHash(1));
      assert.equal(stub.count('eth_getTransactionByHash'), 3);
      assert.equal(stub.count('eth_getBlockByNumber'), 0);
    } finally {
      await rpc.close();
      await stub.close();
    }
  });
});
