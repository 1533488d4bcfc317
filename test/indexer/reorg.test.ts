// Reorg: index a branch, revert the chain to a snapshot and mine a different branch, index again:
// the database must equal a fresh index of the final chain.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChainClient } from '../../src/chain/index.ts';
import type { Database } from '../../src/db/index.ts';
import { createIndexer, type Indexer } from '../../src/indexer/index.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';
import { e18, e6, openV2Market } from './helpers/v2Market.ts';

/** After the chain switched branches: the indexer's first step rolls back, it runs to the head; the second indexes the final chain afresh. */
async function rollBackAndIndexAfresh(indexer: Indexer, afresh: Indexer, db: Database, fresh: Database) {
  const first = await indexer.syncOnce();
  assert.ok(first.reorg, 'the first step after the switch rolls back');
  await runToHead(indexer);
  assert.equal(indexer.status().reorgs, 1);
  await runToHead(afresh);
  return { expected: await snapshotDb(fresh), actual: await snapshotDb(db) };
}

test('after a reorg the stored data equals a fresh index of the final chain', async (t) => {
  const { world, client, dbs: [db, fresh], usdc, weth, tka, usdcWeth, tkaWeth, config: configure } = await openV2Market(t);
  const tkc = await world.token('Token C', 'TKC', 18, 10n ** 6n * e18);
  const tkd = await world.token('Token D', 'TKD', 18, 10n ** 6n * e18);
  const tkdWeth = await world.v2Pair(tkd, weth, 10_000n * e18, 20n * e18);
  await world.v2Swap(tkaWeth, weth, e18);
  const addr = async (c: { getAddress(): Promise<string> }) => (await c.getAddress()).toLowerCase();
  const config = await configure({ batchSize: 5 });
  const indexer = createIndexer({ db, chain: client, config });
  await runToHead(indexer);

  const snapshot = await world.rpc<string>('evm_snapshot');
  // Branch A: trades, a new pool with a new token, time passing.
  await world.v2Swap(tkaWeth, tka, 700n * e18);
  await world.v2Swap(usdcWeth, usdc, 9000n * e6);
  const tkcPair = await world.v2Pair(tkc, weth, 5000n * e18, 10n * e18);
  await world.v2Swap(tkcPair, weth, e18);
  // TKD burned to 0x…dEaD and traded on branch A only: its circulating supply is read there, then orphaned.
  await (await tkd.getFunction('transfer')('0x000000000000000000000000000000000000dEaD', 1234n * e18)).wait();
  await world.v2Swap(tkdWeth, weth, e18 / 10n);
  await runToHead(indexer);
  const branchA = await snapshotDb(db);
  const circulatingOf = async (d: typeof db) =>
    d.query<{ address: string; circulating: string | null; cap: string | null }>(
      `SELECT address, circulating_supply::text AS circulating, market_cap::text AS cap FROM tokens ORDER BY address`);
  const tkdAddress = await addr(tkd);
  const tkdOnA = (await circulatingOf(db)).find((r) => r.address === tkdAddress);
  assert.ok(branchA.tokens.some((r) => r.symbol === 'TKC'));

  // Branch B from the snapshot: other trades, no TKC pool.
  assert.equal(await world.rpc('evm_revert', [snapshot]), true);
  await world.v2Swap(tkaWeth, weth, 3n * e18);
  await world.v2Swap(usdcWeth, weth, 2n * e18);
  await world.v2Swap(tkaWeth, tka, 50n * e18);
  const { expected, actual } = await rollBackAndIndexAfresh(indexer, createIndexer({ db: fresh, chain: client, config: { ...config, batchSize: 1000 } }), db, fresh);
  assert.ok(!actual.tokens.some((r) => r.symbol === 'TKC'));
  assert.deepEqual(actual.swaps, expected.swaps);
  assert.deepEqual(actual.pricePoints, expected.pricePoints);
  assert.deepEqual(actual.tokens, expected.tokens);
  // Circulating supplies and market caps too: TKD, untouched on branch B, was read again after the rollback.
  const circulating = await circulatingOf(db);
  assert.deepEqual(circulating, await circulatingOf(fresh));
  assert.equal(tkdOnA?.circulating, (10n ** 6n * e18 - 1234n * e18).toString());
  assert.equal(circulating.find((r) => r.address === tkdAddress)?.circulating, (10n ** 6n * e18).toString());
  assert.ok(circulating.every((r) => r.circulating !== null));
  // Candles: rolled back with the swaps and rebuilt from what remains, as a fresh index rolls them up.
  assert.ok(actual.candles.length > 0);
  assert.deepEqual(actual.candles, expected.candles);
  const count = async (d: typeof db, table: string) => (await d.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n;
  for (const table of ['indexer_pools', 'indexer_tokens', 'indexer_price_changes']) {
    assert.equal(await count(db, table), await count(fresh, table), table);
  }
});

test('following: a step with new blocks reads no header of its checkpoint (the batch checks its parent); a reorg to a longer branch is rolled back by the first step', async (t) => {
  const { world, client, dbs: [db, fresh], usdc, weth, tka, usdcWeth, tkaWeth, config: configure } = await openV2Market(t);
  const config = await configure({ batchSize: 5 });
  // The headers the indexer asks for, by block number.
  let headersRead: number[] = [];
  const chain: ChainClient = {
    ...client,
    getBlockHeader: (n) => (headersRead.push(n), client.getBlockHeader(n)),
    getBlockHeaders: (ns) => (headersRead.push(...ns), client.getBlockHeaders(ns)),
  };
  const indexer = createIndexer({ db, chain, config });
  await runToHead(indexer);

  // New blocks with a swap: the step reads their headers (the first names its parent) and not the checkpoint's.
  const checkpoint = (await world.latest()).number;
  await world.v2Swap(tkaWeth, weth, e18);
  headersRead = [];
  const step = await indexer.syncOnce();
  assert.deepEqual([step.batch?.fromBlock, step.batch?.toBlock], [checkpoint + 1, (await world.latest()).number]);
  assert.ok(headersRead.length > 0 && !headersRead.includes(checkpoint), `headers read ${headersRead}, checkpoint ${checkpoint}`);
  // Caught up with no new block: the checkpoint's header is read (a reorg may have replaced it).
  headersRead = [];
  await indexer.syncOnce();
  assert.deepEqual(headersRead, [step.batch!.toBlock], 'the checkpoint header when no batch follows');

  const snapshot = await world.rpc<string>('evm_snapshot');
  await world.v2Swap(tkaWeth, tka, 700n * e18);
  await world.v2Swap(usdcWeth, usdc, 9000n * e6);
  await runToHead(indexer);
  const branchA = (await world.latest()).number;
  // Branch B is longer than A: the first step sees new blocks above its checkpoint, whose parent changed.
  assert.equal(await world.rpc('evm_revert', [snapshot]), true);
  for (let i = 0; i < 4; i++) await world.v2Swap(tkaWeth, weth, e18 / 4n);
  assert.ok((await world.latest()).number > branchA);
  const { expected, actual } = await rollBackAndIndexAfresh(indexer, createIndexer({ db: fresh, chain: client, config: { ...config, batchSize: 1000 } }), db, fresh);
  assert.deepEqual(actual.swaps, expected.swaps);
  assert.deepEqual(actual.pricePoints, expected.pricePoints);
  assert.deepEqual(actual.tokens, expected.tokens);
  assert.deepEqual(actual.candles, expected.candles);
});
