// Conformance: every recorded execution-apis exchange, replayed through /rpc against a stub node
// serving the recorded answers, must come back exactly as recorded; every non-null result must
// satisfy both spec/openrpc.json and the upstream execution-apis TransactionInfo schema.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { post, startRpcServer, startStubUpstream, type RpcServer, type StubUpstream } from './helpers.ts';
import { executionApisTransactionValidator, fixturesDir, openRpcResultValidator, parseIoFile, type Exchange } from './schemas.ts';

const exchanges: Exchange[] = ['eth_getTransactionByHash', 'eth_getTransactionByBlockNumberAndIndex'].flatMap((dir) =>
  readdirSync(join(fixturesDir, dir))
    .filter((f) => f.endsWith('.io'))
    .sort()
    .flatMap((f) => parseIoFile(join(fixturesDir, dir, f))),
);

describe('execution-apis conformance', () => {
  let stub: StubUpstream;
  let rpc: RpcServer;
  const recorded = new Map(exchanges.map((x) => [JSON.stringify([x.request.method, x.request.params]), x.response]));

  before(async () => {
    stub = await startStubUpstream((call) => {
      if (call.method === 'eth_getBlockByNumber' && call.params[0] === 'finalized') return { result: { number: '0x100' } };
      const response = recorded.get(JSON.stringify([call.method, call.params]));
      if (!response) return { error: { code: -32601, message: `stub has no recording for ${call.method}` } };
      return 'error' in response ? { error: response.error as { code: number; message: string } } : { result: response.result };
    });
    rpc = await startRpcServer({ upstreamUrl: stub.url });
  });
  after(async () => {
    await rpc.close();
    await stub.close();
  });

  it('has the recorded exchanges (all transaction types and not-found)', () => {
    assert.equal(exchanges.length, 10);
    const types = new Set(exchanges.map((x) => (x.response.result as { type?: string } | null)?.type ?? 'null'));
    assert.deepEqual([...types].sort(), ['0x0', '0x1', '0x2', '0x3', '0x4', 'null']);
  });

  const ours = new Map<string, ReturnType<typeof openRpcResultValidator>>();
  const theirs = executionApisTransactionValidator();
  for (const x of exchanges) {
    it(`${x.request.method}: ${x.comment}`, async () => {
      const res = await post(rpc.url, x.request);
      assert.equal(res.status, 200);
      assert.match(res.contentType ?? '', /^application\/json/);
      assert.deepEqual(res.json(), x.response);
      // Also byte-identical: fields are passed through in the node's order, nothing added.
      assert.equal(res.text, JSON.stringify(x.response));
    });

    it(`${x.request.method}: ${x.comment} - result matches both schemas`, () => {
      const result = x.response.result;
      if (!ours.has(x.request.method)) ours.set(x.request.method, openRpcResultValidator(x.request.method));
      const validate = ours.get(x.request.method)!;
      assert.ok(validate(result), `spec/openrpc.json: ${JSON.stringify(validate.errors)}`);
      if (result === null) return;
      assert.ok(theirs(result), `execution-apis: ${JSON.stringify(theirs.errors)}`);
    });
  }

  it('the same exchanges answered as one batch, in order', async () => {
    const batch = exchanges.map((x, i) => ({ ...x.request, id: i }));
    const res = await post(rpc.url, batch);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.json(),
      exchanges.map((x, i) => ({ ...x.response, id: i })),
    );
  });

  it('the schemas reject a wrong encoding (leading zero quantity, upper-case hash)', () => {
    const tx = exchanges.find((x) => (x.response.result as { type?: string } | null)?.type === '0x2')?.response.result as Record<string, unknown>;
    const validate = openRpcResultValidator('eth_getTransactionByHash');
    assert.equal(validate({ ...tx, nonce: '0x090' }), false);
    assert.equal(validate({ ...tx, hash: String(tx.hash).toUpperCase().replace('0X', '0x') }), false);
    const { to: _to, ...withoutTo } = tx;
    assert.equal(validate(withoutTo), false, 'to is required (null for a creation)');
  });
});
