// Multicall3 reads asked for in the same turn of the event loop, by one client at one block, go
// out as one request (src/chain/multicall.ts), each caller getting its own results; on the test
// chain, against the same reads made one after the other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callMany, createChainClient, readBalances, readTotalSupplies, type ChainClient } from '../../src/chain/index.ts';
import { MULTICALL3_ADDRESS } from '../../src/chain/contracts.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { startProxy } from './helpers.ts';
import { runToHead } from '../indexer/helpers/runToHead.ts';
import { e18, openV2Market } from '../indexer/helpers/v2Market.ts';

const calls = (client: ChainClient) => client.stats().byMethod.eth_call ?? 0;
const TOTAL_SUPPLY = '0x18160ddd';
const lower = async (c: { getAddress(): Promise<string> }) => (await c.getAddress()).toLowerCase();

test('reads side by side at one block cost one request, each caller gets its own results; other blocks and later reads go on their own', async (t) => {
  const { world, client, usdc, weth, tka, usdcWeth } = await openV2Market(t);
  const [a, b, c, pair] = [await lower(usdc), await lower(weth), await lower(tka), await lower(usdcWeth)];
  const block = (await world.latest()).number;
  const m = MULTICALL3_ADDRESS;

  const alone = [await readTotalSupplies(client, [a, b, c], block, m), await readBalances(client, [{ token: a, holder: pair }, { token: b, holder: pair }], block, m)];
  const before = calls(client);
  const together = await Promise.all([readTotalSupplies(client, [a, b, c], block, m), readBalances(client, [{ token: a, holder: pair }, { token: b, holder: pair }], block, m)]);
  assert.equal(calls(client) - before, 1, 'one eth_call for both');
  assert.deepEqual(together, alone);
  assert.ok(together[0].every((s) => s !== null && s > 0n) && together[1].every((s) => s !== null && s > 0n));

  // A call that fails is marked failed for its caller only.
  const failing = { to: pair, data: '0xdeadbeef' };
  const [mine, theirs] = await Promise.all([callMany(client, [failing, { to: a, data: TOTAL_SUPPLY }], block, m), callMany(client, [{ to: b, data: TOTAL_SUPPLY }], block, m)]);
  assert.deepEqual([mine.map((r) => r.ok), theirs.map((r) => r.ok)], [[false, true], [true]]);

  // Another block, or a read started after the first was answered: requests of their own.
  const split = calls(client);
  await Promise.all([readTotalSupplies(client, [a], block, m), readTotalSupplies(client, [a], block - 1, m)]);
  await readTotalSupplies(client, [b], block, m);
  assert.equal(calls(client) - split, 3);

  // More than one Multicall3 batch (200 calls each): split across callers as asked.
  const many = await Promise.all([150, 150, 150].map((n, i) => readTotalSupplies(client, Array.from({ length: n }, () => [a, b, c][i]!), block, m)));
  assert.deepEqual(many.map((r) => new Set(r.map(String)).size), [1, 1, 1]);
  assert.deepEqual(many.map((r) => r[0]), alone[0]);
});

test('a node failure of the joint request fails every caller', async (t) => {
  const { world, usdc, weth } = await openV2Market(t);
  const proxy = await startProxy(world.chain.url, (body) => (body.method === 'eth_call' ? { status: 500 } : null));
  t.after(() => proxy.close());
  const client = createChainClient({ url: proxy.url, maxRetries: 0 });
  t.after(() => client.destroy());
  const [a, b] = [await lower(usdc), await lower(weth)];
  const block = (await world.latest()).number;
  const results = await Promise.allSettled([readTotalSupplies(client, [a], block, MULTICALL3_ADDRESS), readTotalSupplies(client, [b], block, MULTICALL3_ADDRESS)]);
  assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
});

test('following the head: a step with a swap reads total supplies and circulating balances in one request', async (t) => {
  const { world, client, weth, tkaWeth, dbs: [db], config } = await openV2Market(t);
  const indexer = createIndexer({ db, chain: client, config: await config({ batchSize: 5 }) });
  await runToHead(indexer);
  await world.v2Swap(tkaWeth, weth, e18);
  const before = calls(client);
  const step = await indexer.syncOnce();
  assert.ok(step.batch && step.batch.swapEvents === 1);
  assert.equal(calls(client) - before, 1);
});
