// The chain client against the in-process chain behind a misbehaving proxy: getLogs range
// shrinking, retries on transient errors, timeouts, and tolerant ERC-20 reads.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { id } from 'ethers';
import { createChainClient, readErc20Metadata, ChainRequestError, type RawLog } from '../../src/chain/index.ts';
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

test('getLogs splits ranges the node refuses and returns the same logs', async () => {
  const maxRange = 3;
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
    // later calls start from the learned range instead of failing again
    const before = limited.stats().logSplits;
    await limited.getLogs(filter);
    assert.equal(limited.stats().logSplits, before);
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
    await assert.rejects(giveUp.getBlockNumber(), (e) => e instanceof ChainRequestError && e.transient);
  } finally {
    giveUp.destroy();
    await broken.close();
  }
});

test('the requests-per-second cap spaces requests out', async () => {
  const client = createChainClient({ url: world.chain.url, requestsPerSecond: 20 });
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: 40 }, () => client.getBlockNumber()));
    // 20 fit in the initial burst, the other 20 need about a second
    assert.ok(performance.now() - started >= 900, `took ${performance.now() - started} ms`);
  } finally {
    client.destroy();
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
