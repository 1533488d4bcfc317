// Following the head, a batch that reprices much of the catalogue at once (a USD feed round)
// commits its rows and its checkpoint without its candles, and the step rolls them up right after in
// a transaction of its own (writeBatch, createIndexer). Here the threshold is lowered so that a feed
// round over five WETH-quoted tokens crosses it, and the node is shown to the indexer one block at a
// time: the index ends identical to one that never defers (a backfill defers only its batch at the
// head); while the roll-up
// is pending (a step that failed after the commit) the candle answers end at the block before the
// pending one and equal what they were there; a restarted indexer rolls them up before anything
// else; a rollback below the pending block clears the mark.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Contract } from 'ethers';
import { createChainClient, type ChainClient } from '../../src/chain/index.ts';
import type { IndexerConfig } from '../../src/config/indexerConfig.ts';
import type { Database, Queryable } from '../../src/db/index.ts';
import { readCheckpoint } from '../../src/db/indexer/index.ts';
import { rollbackAbove } from '../../src/db/indexer/rollbackAbove.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { createCandlesReader } from '../../src/readModel/candles/readCandles.ts';
import { pgliteOpener } from '../helpers/pglite.ts';
import { runToHead } from './helpers/runToHead.ts';
import { assertSameSnapshot } from './helpers/snapshotDb.ts';
import { createWorld, type World } from './helpers/world.ts';

const e18 = 10n ** 18n;
let world: World;
let client: ChainClient;
let config: IndexerConfig;
const tokens: string[] = [];
/** Blocks of the feed's rounds after the pools exist. */
const rounds: number[] = [];
const { open, closeAll } = pgliteOpener();

const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();

before(async () => {
  world = await createWorld();
  client = createChainClient({ url: world.chain.url });
  const weth = await world.deploy('WETH9', []);
  await world.signer.sendTransaction({ to: await addr(weth), value: 500n * e18 }).then((t) => t.wait());
  const feed = await world.deploy('DemoUsdFeed', ['ETH / USD', world.me, 2000n * 10n ** 8n]);
  const pairs: [Contract, Contract][] = [];
  for (let i = 0; i < 5; i++) {
    const token = await world.token(`Token ${i}`, `TK${i}`, 18, 10n ** 9n * e18);
    tokens.push(await addr(token));
    pairs.push([token, await world.v2Pair(token, weth, BigInt(1_000_000 * (i + 1)) * e18, 50n * e18)]);
  }
  const post = async (usd: bigint) => {
    const tx = await feed.getFunction('post')(usd * 10n ** 8n);
    rounds.push((await tx.wait())!.blockNumber);
  };
  // Swaps between rounds, a few minutes of chain time apart (candle buckets of every interval close).
  for (let round = 0; round < 4; round++) {
    for (const [token, pair] of pairs.slice(0, 2 + round)) await world.v2Swap(pair, token, 1_000n * e18);
    // The round in a later 5-minute bucket than the block before it.
    await world.rpc('evm_setNextBlockTimestamp', [(await world.latest()).timestamp + 400]);
    await post(2000n + 7n * BigInt(round + 1));
  }
  // The last round is the chain's last block: a restart after it finds no batch to index.
  config = world.config({ factories: { v2: [await addr(world.v2Factory)] }, wrappedNative: await addr(weth), usdFeed: await addr(feed), batchSize: 1 });
});

after(async () => {
  await closeAll();
  client?.destroy();
  await world?.stop();
});

/** The chain as a node that has mined up to `cap.block` only: the indexer follows it block by block. */
function capped(cap: { block: number }): ChainClient {
  return Object.assign(Object.create(client) as ChainClient, { getBlockNumber: async () => Math.min(cap.block, await client.getBlockNumber()) });
}

/** Every token's candle answers of every interval, as the API serves them at `now`. */
async function candleAnswers(db: Database, now: Date) {
  const read = createCandlesReader(db);
  const out: Record<string, unknown> = {};
  for (const contractAddress of tokens) {
    for (const interval of ['5m', '15m', '1h', '4h', '1d'] as const) out[`${contractAddress} ${interval}`] = await read({ contractAddress, interval } as never, now);
  }
  return out;
}

/** A database whose every candle statement fails while `failing.on` holds. */
function failingCandles(db: Database, failing: { on: boolean }): Database {
  const refuse = (sql: string) => {
    if (failing.on && /candles_pending_from::text AS "fromBlock"/.test(sql)) throw new Error('the candles refused (test)');
  };
  const wrap = (q: Queryable): Queryable => ({
    ...q,
    query: ((sql: string, params?: Parameters<Queryable['query']>[1]) => (refuse(sql), q.query(sql, params))) as Queryable['query'],
  });
  return Object.assign(Object.create(db) as Database, {
    query: wrap(db).query,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))),
  });
}

let reference: Database;

test('a feed round over the threshold commits first and rolls its candles up right after: the same index as without', async () => {
  reference = await open();
  await runToHead(createIndexer({ db: reference, chain: client, config }));
  const head = (await world.latest()).number;
  const deferredIn = async (db: Database, chain: ChainClient, cap: { block: number } | null) => {
    const indexer = createIndexer({ db, chain, config: { ...config, candlesDeferredAbove: 4 } });
    const deferred: number[] = [];
    for (let steps = 0; steps < 2000; steps++) {
      // The node mines its next block once the indexer has the last one (confirmations: 0).
      if (cap && ((await readCheckpoint(db))?.blockNumber ?? -1) >= cap.block) cap.block++;
      const result = await indexer.syncOnce();
      if (result.batch?.candlesPending) deferred.push(result.batch.fromBlock);
      assert.equal((await readCheckpoint(db))?.candlesPending ?? null, null, 'nothing pending once a step returns');
      if (result.caughtUp && (await readCheckpoint(db))?.blockNumber === head) break;
    }
    return deferred;
  };
  // Every round reprices WETH and the five tokens: six price changes, over the threshold of four.
  const followed = await open();
  const cap = { block: 0 };
  assert.deepEqual(await deferredIn(followed, capped(cap), cap), rounds, 'following: every round');
  await assertSameSnapshot(followed, reference, 'following, the candles after the commit');
  const now = new Date(((await world.latest()).timestamp + 60) * 1000);
  assert.deepEqual(await candleAnswers(followed, now), await candleAnswers(reference, now));
  // A backfill in batches of one block: only the batch that reaches the head (the last round).
  const backfilled = await open();
  assert.deepEqual(await deferredIn(backfilled, client, null), [head], 'backfilling: the batch at the head only');
  await assertSameSnapshot(backfilled, reference, 'backfilled');
});

test('while candles are pending the series ends at the block before; a restart rolls them up first; a rollback below clears the mark', async () => {
  const last = rounds.at(-1)!;
  // Indexed to the block before the last round, then the round's step fails after its commit.
  const db = await open();
  const failing = { on: false };
  const cap = { block: last - 1 };
  const first = createIndexer({ db: failingCandles(db, failing), chain: capped(cap), config: { ...config, candlesDeferredAbove: 4 } });
  assert.equal(last, (await world.latest()).number);
  await runToHead(first);
  assert.equal((await readCheckpoint(db))?.blockNumber, last - 1);
  const before = await readCheckpoint(db);
  const now = new Date(((await world.latest()).timestamp + 60) * 1000);
  const answersBefore = await candleAnswers(db, now);
  failing.on = true;
  cap.block = last;
  await assert.rejects(first.syncOnce(), /the candles refused/);
  await first.stop();
  const pending = await readCheckpoint(db);
  assert.equal(pending?.blockNumber, last, 'the round committed');
  assert.deepEqual(pending?.candlesPending, { fromBlock: last, throughTime: before!.blockTime });
  assert.deepEqual(await candleAnswers(db, now), answersBefore, 'the candle answers as at the block before the round');

  // A rollback to below the pending block removes what was pending; at or above, it stays.
  for (const [block, expected] of [[last, { fromBlock: last, throughTime: before!.blockTime }], [last - 1, null]] as const) {
    await db.transaction(async (tx) => {
      await rollbackAbove(tx, block);
      assert.deepEqual((await readCheckpoint(tx))?.candlesPending ?? null, expected, `rolled back above ${block}`);
      throw new Error('undo');
    }).catch((error: unknown) => assert.match(String(error), /undo/));
  }

  // A restarted indexer rolls them up in its first step, which has no batch to index.
  failing.on = false;
  const restarted = createIndexer({ db, chain: client, config: { ...config, candlesDeferredAbove: 4 } });
  const step = await restarted.syncOnce();
  assert.equal(step.batch, null);
  assert.equal((await readCheckpoint(db))?.candlesPending ?? null, null);
  await assertSameSnapshot(db, reference, 'after the restart');
});
