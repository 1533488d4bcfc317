// The chain client against the in-process chain behind a misbehaving proxy: getLogs ranges that
// shrink when refused and grow back, retries on transient errors, timeouts, batches, credentials
// in the URL, and tolerant ERC-20 reads.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { id } from 'ethers';
import { ChainError, createChainClient, readErc20Metadata, type RawLog } from '../../src/chain/index.ts';
import { createWorld, type World } from '../indexer/helpers/world.ts';
import { startProxy } from './helpers.ts';

let world: World;
const tokens: string[] = [];
const TRANSFER = id('Transfer(address,address,uint256)');

before(async () => {
  world = await createWorld();
  const t = await world.token('Plain', 'PLN', 18, 10n ** 24n);
  for (let i = 0; i < 20; i++) await (await t.getFunction('transfer')(world.me, BigInt(i + 1))).wait();
  tokens.push(
    (await t.getAddress()).toLowerCase(),
    (await (await world.deploy('RevertingNameToken', [10n ** 24n, world.me])).getAddress()).toLowerCase(),
    (await (await world.deploy('Bytes32MetadataToken', [10n ** 24n, world.me])).getAddress()).toLowerCase(),
    (await (await world.deploy('MaxDecimalsToken', [10n ** 24n, world.me])).getAddress()).toLowerCase(),
    (await (await world.deploy('NoDecimalsToken', [10n ** 24n, world.me])).getAddress()).toLowerCase(),
    '0x000000000000000000000000000000000000dead', // not a contract at all
  );
});
after(() => world.stop());

test('getLogs ranges shrink while the node refuses them, return the same logs, and grow back once it stops', async () => {
  let maxRange = 3;
  const proxy = await startProxy(world.chain.url, (body) => {
    if (body.method !== 'eth_getLogs') return null;
    const [f] = body.params as [{ fromBlock: string; toBlock: string }];
    if (Number(f.toBlock) - Number(f.fromBlock) + 1 <= maxRange) return null;
    return { status: 200, body: { jsonrpc: '2.0', id: body.id, error: { code: -32005, message: 'query returned more than 10000 results' } } };
  });
  const direct = createChainClient({ url: world.chain.url });
  const limited = createChainClient({ url: proxy.url, maxRetries: 1 });
  try {
    const head = await direct.getBlockNumber();
    const filter = { fromBlock: 0, toBlock: head, topics: [[TRANSFER]] };
    const expected = await direct.getLogs(filter);
    const actual: RawLog[] = await limited.getLogs(filter);
    assert.ok(expected.length >= 20);
    assert.deepEqual(actual, expected);
    assert.ok(limited.stats().logSplits > 0);
    assert.ok(limited.stats().logRange! < head, `range ${limited.stats().logRange}`);
    // The node accepts any range again: the range doubles after every few successes until unlimited.
    maxRange = Number.POSITIVE_INFINITY;
    const requestsFor = async () => {
      const before = limited.stats().byMethod.eth_getLogs ?? 0;
      assert.deepEqual(await limited.getLogs(filter), expected);
      return (limited.stats().byMethod.eth_getLogs ?? 0) - before;
    };
    const counts = [await requestsFor()];
    while (counts.length < 12 && counts.at(-1)! > 1) counts.push(await requestsFor());
    assert.ok(counts[0]! > 3, `the first scan after the refusals took ${counts[0]} requests`);
    assert.equal(counts.at(-1), 1, `requests per scan: ${counts.join(', ')}`);
    assert.ok(limited.stats().logRange! > head, 'the range grew past the whole scan');
  } finally {
    direct.destroy();
    limited.destroy();
    await proxy.close();
  }
});

test('transient failures (503, 429, timeouts) are retried; permanent ones surface', async () => {
  const proxy = await startProxy(world.chain.url, (body, n) => {
    if (body.method !== 'eth_blockNumber') return null;
    if (n === 1) return { status: 503 };
    if (n === 2) return { status: 429 };
    if (n === 3) return { status: 200, delayMs: 400 };
    return null;
  });
  const client = createChainClient({ url: proxy.url, timeoutMs: 200, maxRetries: 5, retryBaseMs: 10 });
  try {
    assert.equal(await client.getBlockNumber(), (await world.latest()).number);
    assert.equal(client.stats().retries, 3);
  } finally {
    client.destroy();
    await proxy.close();
  }
  const broken = await startProxy(world.chain.url, () => ({ status: 503 }));
  const giveUp = createChainClient({ url: broken.url, maxRetries: 2, retryBaseMs: 5 });
  try {
    await assert.rejects(giveUp.getBlockNumber(), (e: unknown) => e instanceof ChainError && e.retryable && e.name === 'HttpStatusError');
    assert.equal(giveUp.stats().retries, 2);
  } finally {
    giveUp.destroy();
    await broken.close();
  }
});

test('batches: headers in one exchange equal single reads; a node that refuses batches gets single calls', async () => {
  const direct = createChainClient({ url: world.chain.url });
  const refusing = await startProxy(world.chain.url, () => null, { refuseBatches: true });
  const viaRefusing = createChainClient({ url: refusing.url });
  try {
    const head = await direct.getBlockNumber();
    const numbers = [0, 1, head, head + 1000];
    const singles = await Promise.all(numbers.map((n) => direct.getBlockHeader(n)));
    assert.deepEqual(await direct.getBlockHeaders(numbers), singles);
    assert.equal(singles[3], null);
    assert.equal(direct.stats().batches, 1);
    assert.deepEqual(await viaRefusing.getBlockHeaders(numbers), singles);
    assert.deepEqual(await viaRefusing.getBlockHeaders(numbers), singles);
    assert.equal(viaRefusing.stats().batches, 1, 'batches are not tried again once refused');
  } finally {
    direct.destroy();
    viaRefusing.destroy();
    await refusing.close();
  }
});

test('credentials in the URL go as a Basic Authorization header, never into an error', async () => {
  const seen: (string | undefined)[] = [];
  const proxy = await startProxy(world.chain.url, () => null, { onHeaders: (h) => seen.push(h.authorization) });
  const { port } = new URL(proxy.url);
  const client = createChainClient({ url: `http://us%40er:p%3Ass@127.0.0.1:${port}/` });
  const down = createChainClient({ url: 'http://user:secret-key@127.0.0.1:1/v3/another-secret', maxRetries: 0 });
  try {
    assert.equal(client.endpoint, `http://127.0.0.1:${port}`);
    assert.equal(await client.getBlockNumber(), (await world.latest()).number);
    assert.deepEqual(seen, [`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`]);
    await assert.rejects(down.getBlockNumber(), (e: unknown) => {
      assert.ok(e instanceof ChainError);
      assert.doesNotMatch(`${e.message} ${e.shortMessage} ${JSON.stringify(e)}`, /secret/);
      return true;
    });
  } finally {
    client.destroy();
    down.destroy();
    await proxy.close();
  }
});

test('ERC-20 reads tolerate hostile tokens, through Multicall3 and one by one', async () => {
  const client = createChainClient({ url: world.chain.url });
  try {
    for (const multicall of [world.config().multicall3, null]) {
      const [plain, noName, b32, dec255, noDec, eoa] = await readErc20Metadata(client, tokens, 'latest', multicall);
      assert.deepEqual([plain?.name, plain?.symbol, plain?.decimals, plain?.totalSupply], ['Plain', 'PLN', 18, 10n ** 24n]);
      assert.deepEqual([noName?.name, noName?.symbol, noName?.decimals], [null, 'NONAME', 18]);
      assert.deepEqual([b32?.name, b32?.symbol, b32?.decimals], ['Maker Classic', 'MKRC', 18]);
      assert.equal(dec255?.decimals, 255);
      assert.deepEqual([noDec?.name, noDec?.decimals], ['No Decimals', null]);
      assert.deepEqual([eoa?.name, eoa?.symbol, eoa?.decimals, eoa?.totalSupply], [null, null, null, null]);
    }
  } finally {
    client.destroy();
  }
});
