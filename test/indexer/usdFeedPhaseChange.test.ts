// The USD feed's proxy moving to another aggregator (a Chainlink phase change): an AnswerUpdated
// log is the feed's only when its emitter is the aggregator the proxy points at in its block; at the
// block of a change the new aggregator's latest answer before it is the feed's. The answers stored
// equal a model the test writes from what it posted and when it moved the proxy, for forward
// batches of any size (changes inside a batch, at its edges, two in one batch), across a restart,
// and for a head-first bootstrap whose history ranges hold the changes; every run's prices equal.
// The aggregators refuse reads through Multicall3, as Chainlink's do.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { getCreateAddress, type Contract } from 'ethers';
import { createChainClient, type ChainClient } from '../../src/chain/index.ts';
import type { IndexerConfig } from '../../src/config/indexerConfig.ts';
import type { Database } from '../../src/db/index.ts';
import { readCheckpoint } from '../../src/db/indexer/index.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { pgliteOpener } from '../helpers/pglite.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';
import { createWorld, type World } from './helpers/world.ts';

const e18 = 10n ** 18n;
let world: World;
let client: ChainClient;
let config: IndexerConfig;
const { open, closeAll } = pgliteOpener();
/** The model: the feed's answers as (block, answer), written from the test's own actions. */
const expected: { block: number; answer: bigint }[] = [];

const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();
const blockOf = async (tx: Promise<{ wait(): Promise<{ blockNumber: number } | null> }>) => (await (await tx).wait())!.blockNumber;

before(async () => {
  world = await createWorld();
  client = createChainClient({ url: world.chain.url });
  const weth = await world.deploy('WETH9', []);
  const token = await world.token('Token', 'TKN', 18, 10n ** 9n * e18);
  await world.signer.sendTransaction({ to: await addr(weth), value: 100n * e18 }).then((t) => t.wait());
  const pair = await world.v2Pair(token, weth, 1_000_000n * e18, 50n * e18);
  // Aggregators that answer latestRoundData() only to the proxy or to a call straight to them, as Chainlink's do.
  const feed = (answer: bigint) => world.deploy('DemoCheckedAggregator', [world.me, answer * 10n ** 8n]);
  const post = (f: Contract, answer: bigint) => blockOf(f.getFunction('post')(answer * 10n ** 8n));
  const allow = async (f: Contract, reader: string) => blockOf(f.getFunction('allowReader')(reader));
  const swap = () => world.v2Swap(pair, token, 1_000n * e18);

  const a = await feed(2000n);
  const b = await feed(1900n); // answers before the proxy points at it: not the feed's
  // The proxy's address from the nonce it will be created with, so A and B serve it from its first block.
  const proxyAddress = getCreateAddress({ from: world.me, nonce: (await world.provider.getTransactionCount(world.me)) + 2 });
  await allow(a, proxyAddress);
  await allow(b, proxyAddress);
  const proxyContract = await world.deploy('DemoFeedProxy', [await addr(a)]);
  assert.equal(await addr(proxyContract), proxyAddress.toLowerCase());
  const proxy = (await proxyContract.deploymentTransaction()!.wait())!.blockNumber;
  expected.push({ block: proxy, answer: 2000n }); // A's latest answer before the proxy's first block
  await swap();
  expected.push({ block: await post(a, 2001n), answer: 2001n });
  await post(b, 1901n);
  await swap();
  const toB = await blockOf(proxyContract.getFunction('confirmAggregator')(await addr(b)));
  expected.push({ block: toB, answer: 1901n }); // B's latest answer before the change
  await post(a, 2002n); // the old aggregator still answering: not the feed's
  expected.push({ block: await post(b, 1902n), answer: 1902n });
  await swap();
  const c = await feed(1800n);
  await allow(c, proxyAddress);
  // Two changes a block apart (inside one batch of 3 or more), then back to A.
  const toC = await blockOf(proxyContract.getFunction('confirmAggregator')(await addr(c)));
  expected.push({ block: toC, answer: 1800n });
  const toA = await blockOf(proxyContract.getFunction('confirmAggregator')(await addr(a)));
  expected.push({ block: toA, answer: 2002n }); // A's latest, posted while it was not the feed's
  await post(c, 1801n);
  expected.push({ block: await post(a, 2003n), answer: 2003n });
  await swap();
  for (let i = 0; i < 3; i++) await world.mineAt((await world.latest()).timestamp + 60);

  config = world.config({ factories: { v2: [await addr(world.v2Factory)] }, wrappedNative: await addr(weth), usdFeed: await addr(proxyContract) });
});

after(async () => {
  await closeAll();
  client?.destroy();
  await world?.stop();
});
const answers = async (db: Database) =>
  (await db.query<{ block: string; answer: string }>(`SELECT block_number::text AS block, answer::text AS answer FROM indexer_feed_answers ORDER BY block_number, log_index`))
    .map((r) => ({ block: Number(r.block), answer: BigInt(r.answer) / 10n ** 8n }));

let reference: Awaited<ReturnType<typeof snapshotDb>>;

test('forward batches of any size store the answers of the aggregator in force, and equal prices', async () => {
  for (const batchSize of [1000, 3, 1]) {
    const db = await open();
    await runToHead(createIndexer({ db, chain: client, config: { ...config, batchSize } }));
    assert.deepEqual(await answers(db), expected, `batches of ${batchSize}`);
    const snapshot = await snapshotDb(db);
    assert.ok(snapshot.priceChanges.length > expected.length, 'WETH and the token priced through the feed');
    if (reference) assert.deepEqual(snapshot, reference, `batches of ${batchSize}`);
    reference ??= snapshot;
  }
});

test("a batch with the first aggregator at both ends finds the changes between by the proxy's phase", async () => {
  // From the block after the proxy's first: A in force at both ends of one batch, B and C between.
  // The pair was created before that start, so the wrapped native token is never seen: the feed's
  // answers are stored, and the token it would price has no row and no price (the write does not fail).
  const db = await open();
  const startBlock = expected[0]!.block + 1;
  await runToHead(createIndexer({ db, chain: client, config: { ...config, startBlock } }));
  assert.deepEqual(await answers(db), [{ block: startBlock, answer: 2000n }, ...expected.slice(1)]);
  assert.deepEqual(await db.query(`SELECT address FROM tokens`), []);
  assert.deepEqual(await db.query(`SELECT token FROM indexer_price_changes`), []);
});

test('a restart between batches reads the aggregator again and stores the same answers', async () => {
  const db = await open();
  const first = createIndexer({ db, chain: client, config: { ...config, batchSize: 4 } });
  for (let i = 0; i < 5; i++) await first.syncOnce();
  await first.stop();
  await runToHead(createIndexer({ db, chain: client, config: { ...config, batchSize: 4 } }));
  assert.deepEqual(await answers(db), expected);
  assert.deepEqual(await snapshotDb(db), reference);
});

test('a head-first bootstrap fills ranges holding the changes with the same answers and prices', async () => {
  for (const historyRangeBlocks of [2, 5, 40]) {
    const db = await open();
    await runToHead(createIndexer({ db, chain: client, config: { ...config, bootstrap: 'head-first', historyRangeBlocks } }));
    // The catalogue at the bootstrap block took the answer in force there, read by call.
    const bootstrapBlock = (await readCheckpoint(db))!.history!.bootstrapBlock;
    const atBootstrap = { block: bootstrapBlock, answer: expected.at(-1)!.answer };
    assert.deepEqual(await answers(db), [...expected, atBootstrap], `ranges of ${historyRangeBlocks} blocks`);
    assert.deepEqual(await snapshotDb(db), reference, `ranges of ${historyRangeBlocks} blocks`);
  }
});
