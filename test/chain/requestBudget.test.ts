// The process's request budget, as a provider sees it: counted at a stub node, never more calls in
// a second than the rate (batch items counted), never more in flight than allowed, a 429's
// Retry-After waited out by every sender, and interactive requests served before background ones,
// those before idle ones.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChainClient, createRequestBudget } from '../../src/chain/index.ts';
import { idleReserve } from '../../src/chain/createRequestBudget.ts';
import { startStubNode } from './helpers.ts';

test('under concurrency the budget never exceeds its rate at the node', async () => {
  const node = await startStubNode();
  const budget = createRequestBudget({ perSecond: 10 });
  const clients = [1, 2, 3].map(() => createChainClient({ url: node.url, budget, maxBatchSize: 1 }));
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: 35 }, (_, i) => clients[i % 3]!.getBlockNumber()));
    assert.equal(node.arrivals.length, 35);
    assert.ok(node.mostCallsInWindow(1000) <= 10, `${node.mostCallsInWindow(1000)} calls in one second`);
    assert.ok(performance.now() - started >= 3000, 'the 35 calls need at least three full windows after the first');
    assert.equal(budget.stats().granted, 35);
  } finally {
    for (const c of clients) c.destroy();
    await node.close();
  }
});

test('each item of a JSON-RPC batch counts: a batch larger than the rate is split', async () => {
  const node = await startStubNode();
  const budget = createRequestBudget({ perSecond: 8 });
  const client = createChainClient({ url: node.url, budget, maxBatchSize: 50 });
  try {
    const headers = await client.batch(Array.from({ length: 20 }, (_, i) => ({ method: 'eth_getBalance', params: [`0x${i}`] })));
    assert.equal(headers.length, 20);
    assert.deepEqual(node.arrivals.map((a) => a.methods.length), [8, 8, 4]);
    assert.ok(node.mostCallsInWindow(1000) <= 8);
    assert.deepEqual(client.stats().byMethod, { eth_getBalance: 20 });
    assert.equal(client.stats().requests, 20);
  } finally {
    client.destroy();
    await node.close();
  }
});

test("a 429's Retry-After holds every sender back, then the calls succeed", async () => {
  const node = await startStubNode({ decide: (_, n) => (n === 1 ? { status: 429, retryAfter: '1' } : null) });
  const budget = createRequestBudget({ perSecond: 100 });
  const a = createChainClient({ url: node.url, budget });
  const b = createChainClient({ url: node.url, budget });
  try {
    const first = a.getBlockNumber();
    await new Promise((r) => setTimeout(r, 100)); // the refusal has arrived
    const others = Promise.all([b.getBlockNumber(), b.getChainId()]);
    assert.deepEqual(await Promise.all([first, others]), [1, [1, 1]]);
    const refused = node.arrivals[0]!;
    assert.equal(refused.status, 429);
    for (const later of node.arrivals.slice(1)) assert.ok(later.at - refused.at >= 990, `a call arrived ${Math.round(later.at - refused.at)} ms after the 429`);
    assert.equal(a.stats().throttled, 1);
    assert.equal(a.stats().retries, 1);
    assert.equal(budget.stats().throttled, 1);
    assert.ok(budget.stats().rate! < 100, 'the rate steps down after a refusal');
  } finally {
    a.destroy();
    b.destroy();
    await node.close();
  }
});

test('never more requests in flight than allowed', async () => {
  const node = await startStubNode({ decide: () => ({ delayMs: 30 }) });
  const budget = createRequestBudget({ perSecond: 0, maxConcurrency: 3 });
  const client = createChainClient({ url: node.url, budget });
  try {
    await Promise.all(Array.from({ length: 20 }, () => client.getBlockNumber()));
    assert.equal(node.arrivals.length, 20);
    assert.equal(node.maxInFlight(), 3);
  } finally {
    client.destroy();
    await node.close();
  }
});

test('interactive requests are granted before queued background ones', async () => {
  const node = await startStubNode({ result: (method) => (method === 'eth_chainId' ? '0xe708' : '0x1') });
  const budget = createRequestBudget({ perSecond: 5 });
  const indexer = createChainClient({ url: node.url, budget, priority: 'background' });
  const user = createChainClient({ url: node.url, budget, priority: 'interactive' });
  try {
    const started = performance.now();
    const background = Promise.all(Array.from({ length: 12 }, () => indexer.getBlockNumber()));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(await user.getChainId(), 0xe708);
    // Seven background calls were queued before it: in their order it would wait for a third window.
    const waited = performance.now() - started;
    assert.ok(waited >= 1000 && waited < 1900, `the user's call was answered after ${Math.round(waited)} ms`);
    await background;
    assert.ok(performance.now() - started >= 2000);
  } finally {
    indexer.destroy();
    user.destroy();
    await node.close();
  }
});

test('idle requests (contract checks) are granted only when no background request (the indexer) waits', async () => {
  const node = await startStubNode({ result: (method) => (method === 'eth_chainId' ? '0xe708' : '0x1') });
  const budget = createRequestBudget({ perSecond: 5 });
  const checks = createChainClient({ url: node.url, budget, priority: 'idle' });
  const indexer = createChainClient({ url: node.url, budget, priority: 'background' });
  try {
    const order: string[] = [];
    // Ten idle calls queued first fill the first window but its one kept slot; five indexer calls queued after them go first.
    const idle = Array.from({ length: 10 }, (_, i) => checks.getBlockNumber().then(() => order.push(`idle${i}`)));
    await new Promise((r) => setTimeout(r, 50));
    const background = Array.from({ length: 5 }, (_, i) => indexer.getBlockNumber().then(() => order.push(`indexer${i}`)));
    await Promise.all([...idle, ...background]);
    // The first window's four idle calls had their slots before the indexer asked; every indexer call comes before the remaining idle ones.
    assert.deepEqual(order.slice(0, 4).sort(), ['idle0', 'idle1', 'idle2', 'idle3'], `order: ${order.join(' ')}`);
    assert.deepEqual(order.slice(4, 9).sort(), ['indexer0', 'indexer1', 'indexer2', 'indexer3', 'indexer4'], `order: ${order.join(' ')}`);
    assert.ok(node.mostCallsInWindow(1000) <= 5, `${node.mostCallsInWindow(1000)} calls in one second`);
  } finally {
    indexer.destroy();
    checks.destroy();
    await node.close();
  }
});

test('idle requests leave a fifth of the rate free: an indexer request while the checks keep the budget busy goes at once', async () => {
  const node = await startStubNode({ result: (method) => (method === 'eth_chainId' ? '0xe708' : '0x1') });
  const budget = createRequestBudget({ perSecond: 25 });
  const checks = createChainClient({ url: node.url, budget, priority: 'idle', maxBatchSize: 1 });
  const indexer = createChainClient({ url: node.url, budget, priority: 'background' });
  try {
    assert.equal(idleReserve(25), 5);
    assert.equal(idleReserve(1), 0, 'idle work still runs under a rate of 1');
    assert.equal(budget.maxItems('idle'), 20, 'an idle batch is split to what idle grants may take');
    // The checks ask for three seconds' worth at once, as a round of contract checks does.
    const idle = Promise.all(Array.from({ length: 75 }, () => checks.getBlockNumber()));
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 250 + 60 * i));
      const asked = performance.now();
      await indexer.getBlockNumber();
      waits.push(performance.now() - asked);
    }
    await idle;
    // Without the reserve, each waited for a slot the checks had filled (up to a second).
    assert.ok(Math.max(...waits) < 400, `indexer waits ${waits.map(Math.round).join(', ')} ms`);
    assert.ok(node.mostCallsInWindow(1000) <= 25, `${node.mostCallsInWindow(1000)} calls in one second`);
    const idleOnly = createRequestBudget({ perSecond: 25 });
    const grants: number[] = [];
    await Promise.all(Array.from({ length: 40 }, () => idleOnly.acquire(1, { priority: 'idle' }).then((release) => (grants.push(performance.now()), release!()))));
    const first = grants[0]!;
    assert.equal(grants.filter((t) => t < first + 500).length, 20, 'idle grants alone take 20 of 25 slots a second');
  } finally {
    indexer.destroy();
    checks.destroy();
    await node.close();
  }
});

test('an interactive wait for the budget longer than the timeout fails as a timeout, in bounded time', async () => {
  const node = await startStubNode();
  const budget = createRequestBudget({ perSecond: 1 });
  const client = createChainClient({ url: node.url, budget, timeoutMs: 300, maxRetries: 0, priority: 'interactive' });
  try {
    await client.getBlockNumber();
    const started = performance.now();
    await assert.rejects(client.getBlockNumber(), (e: unknown) => (e as Error).name === 'RpcTimeoutError');
    assert.ok(performance.now() - started < 600);
    assert.equal(node.arrivals.length, 1);
  } finally {
    client.destroy();
    await node.close();
  }
});
