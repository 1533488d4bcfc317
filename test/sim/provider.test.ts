// The provider profile in front of the simulated node, over HTTP: requests per second with each
// batch item counted (over the limit: 429, Retry-After and a JSON-RPC error), the eth_getLogs rule
// of hosted providers (≤ 2,000 blocks, or any range with ≤ 10,000 results, else their error),
// logs with or without blockTimestamp, requests counted by method. The speed of eth_getLogs is
// test/sim/getLogsSpeed.test.ts's.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TOPIC0 } from '../../sim/abi.ts';
import { SimChain } from '../../sim/chain.ts';
import { HOSTED_DEFAULTS, parseProvider } from '../../sim/provider.ts';
import { startSimServer, type SimServer } from '../../sim/server.ts';

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
};
const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params });
const hex = (n: number) => '0x' + n.toString(16);

let chain: SimChain;
const servers: SimServer[] = [];
before(() => {
  chain = new SimChain({ profile: 'demo-size', seed: 11 });
});
after(async () => {
  for (const s of servers) await s.close();
});
const serve = async (provider: string) => {
  const s = await startSimServer(chain, { provider: parseProvider(provider) });
  servers.push(s);
  return s;
};

test('--provider parses over the hosted defaults', () => {
  assert.deepEqual(parseProvider(''), HOSTED_DEFAULTS);
  assert.deepEqual(parseProvider('rps=25,rtt=30'), { ...HOSTED_DEFAULTS, rps: 25, rtt: 30 });
  assert.equal(parseProvider('rps=inf').rps, Infinity);
  assert.throws(() => parseProvider('speed=3'), /unknown key/);
});

test('over the rate: HTTP 429 with Retry-After and a JSON-RPC error; batch items count', async () => {
  const s = await serve('rps=2,rtt=0');
  // A batch of 6 passes on a full bucket and takes 6 requests: the bucket owes 4 (2 s at 2/s), so
  // a single call right after is refused, as is another batch.
  const batch = Array.from({ length: 6 }, (_, i) => call('eth_blockNumber', [], i + 1));
  const first = await post(s.url, batch);
  assert.equal(first.status, 200);
  assert.equal(first.body.length, 6);
  const single = await post(s.url, call('eth_chainId'));
  assert.equal(single.status, 429);
  assert.ok(Number(single.retryAfter) >= 1);
  assert.equal(single.body.error.code, 429);
  assert.match(single.body.error.message, /requests per second/);
  assert.equal((await post(s.url, batch)).status, 429);
  await new Promise((r) => setTimeout(r, 3100));
  assert.equal((await post(s.url, call('eth_chainId'))).body.result, '0xe708');
  const stats = s.stats();
  assert.equal(stats.byMethod.eth_blockNumber, 6, 'refused items are not answered');
  assert.equal(stats.throttled, 7);
  assert.equal(stats.requests, 14);
});

test("eth_getLogs: ranges over 2,000 blocks pass only with ≤ 10,000 results, else the provider's error; blockTimestamp per profile", async () => {
  const without = await serve('rps=inf,rtt=0,results=50');
  const head = chain.head;
  const small = await post(without.url, call('eth_getLogs', [{ fromBlock: hex(head - 1999), toBlock: hex(head) }]));
  assert.ok(small.body.result.length > 50, 'a 2,000-block range answers whatever its size');
  assert.equal(small.body.result[0].blockTimestamp, undefined);
  const wide = await post(without.url, call('eth_getLogs', [{ fromBlock: hex(head - 2000), toBlock: hex(head) }]));
  assert.equal(wide.body.error.code, -32602);
  assert.match(wide.body.error.message, /Log response size exceeded.*this block range should work: \[0x[0-9a-f]+, 0x[0-9a-f]+\]/);
  // A wide range with few results passes (the creation blocks before trading are sparse).
  const sparse = await post(without.url, call('eth_getLogs', [{ fromBlock: '0x0', toBlock: hex(2500), topics: [TOPIC0.answerUpdated] }]));
  assert.ok(sparse.body.result.length > 0 && sparse.body.result.length <= 50);
  assert.equal(without.stats().logRangeRefusals, 1);

  const withTimes = await serve('rps=inf,rtt=0,timestamps=1');
  const logs = (await post(withTimes.url, call('eth_getLogs', [{ fromBlock: hex(head - 10), toBlock: hex(head) }]))).body.result;
  const block = (await post(withTimes.url, call('eth_getBlockByNumber', [logs[0].blockNumber, false]))).body.result;
  assert.equal(logs[0].blockTimestamp, block.timestamp);
});

test('a round-trip delay is added to every answer', async () => {
  const s = await serve('rps=inf,rtt=120');
  const started = performance.now();
  await post(s.url, call('eth_blockNumber'));
  assert.ok(performance.now() - started >= 115);
});
