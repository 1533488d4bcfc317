// Reorg and restart across every DEX family (Uniswap V4 included), on one in-process chain: a restart in the middle of a
// backfill and a reorg (swaps in every family's pool, a new concentrated pool with its position and
// a further position in an existing one, all replaced by another branch) both leave exactly what a
// fresh, uninterrupted index of the final chain stores: tokens with their liquidity, volume and
// price source, swaps with their USD values, pool rows, concentrated positions and price changes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Contract } from 'ethers';
import { createChainClient } from '../../src/chain/index.ts';
import type { IndexerConfig } from '../../src/config/indexerConfig.ts';
import { type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { familyCases, type Case } from './helpers/familyCases.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';
import { createWorld, type World } from './helpers/world.ts';
import { createFamilyPools, type FamilyPools } from './helpers/familyPools.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
let world: World;
let usdc: Contract;
let client: ReturnType<typeof createChainClient>;
let config: IndexerConfig;
const CASES: Case[] = familyCases(() => ({ world, usdc }));
const built: FamilyPools['built'] = [];
let v2: FamilyPools['v2'];
let v4: FamilyPools['v4'];
const databases: Database[] = [];
/** The restart test's uninterrupted run, at the head: the reorg test goes on from it (a database costs seconds). */
let indexedAtHead: Database | undefined;
const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();
const open = async () => {
  const db = await openPglite();
  databases.push(db);
  return db;
};

before(async () => {
  world = await createWorld();
  usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 15n * e6);
  const pools = await createFamilyPools(world, usdc, CASES);
  built.push(...pools.built);
  ({ v2, v4 } = pools);
  const configured = pools.configured;
  for (const { c, token, pool } of built) {
    await c.swap(pool, token, 1_000n * e18);
    await c.swap(pool, usdc, 600n * e6);
  }
  await world.v2Swap(v2.pair, v2.token, 1_000n * e18);
  await world.v2Swap(v2.pair, usdc, 600n * e6);
  await v4.api.swap(v4.manager, v4.key, v4.tokenIs0, 1_000n * e18);
  await v4.api.swap(v4.manager, v4.key, !v4.tokenIs0, 600n * e6);
  client = createChainClient({ url: world.chain.url });
  config = world.config({ factories: configured, stablecoins: [await addr(usdc)], batchSize: 16 });
});

after(async () => {
  for (const db of databases) await db.close();
  client?.destroy();
  await world?.stop();
});

test('every family: a restart in the middle of a backfill equals an uninterrupted run', async () => {
  const straight = await open();
  const resumed = await open();
  await runToHead(createIndexer({ db: straight, chain: client, config }));
  const first = createIndexer({ db: resumed, chain: client, config });
  for (let i = 0; i < 3; i++) await first.syncOnce();
  assert.ok((first.status().indexedBlock ?? 0) < (await world.latest()).number, 'stopped mid-backfill');
  await first.stop();
  await runToHead(createIndexer({ db: resumed, chain: client, config }));

  indexedAtHead = straight;
  const a = await snapshotDb(straight, { withUpdatedAt: true });
  const b = await snapshotDb(resumed, { withUpdatedAt: true });
  assert.equal(new Set(b.pools.map((p) => p.family)).size, 7, 'pools of every family');
  assert.equal(b.swaps.length, (CASES.length + 2) * 2 * 2, 'two swaps per pool, one row per token');
  assert.ok(b.swaps.every((s) => s.value_usd !== null), 'every swap valued');
  assert.ok(b.positions.length >= 3, 'concentrated positions');
  assert.deepEqual(b, a);
});

test('every family: after a reorg the stored data equals a fresh index of the final chain', async () => {
  const db = indexedAtHead ?? (await open());
  const indexer = createIndexer({ db, chain: client, config: { ...config, batchSize: 6 } });
  await runToHead(indexer);
  const snapshot = await world.rpc<string>('evm_snapshot');

  // Branch A: a swap in every pool, a new Algebra pool (a new token and its position), another
  // position in the PancakeSwap V3 pool.
  for (const { c, token, pool } of built) await c.swap(pool, token, 300n * e18);
  await world.v2Swap(v2.pair, v2.token, 300n * e18);
  await v4.api.swap(v4.manager, v4.key, v4.tokenIs0, 300n * e18);
  await v4.api.modify(v4.manager, v4.key, 10n ** 15n); // another V4 position
  const algebra = built.find((b) => b.c.kind === 'algebra')!;
  const newToken = await world.token('Branch Token', 'BRT', 18, 10n ** 9n * e18);
  await algebra.c.create(algebra.factory, newToken, 50_000n * e18, 100_000n * e6);
  const pancake = built.find((b) => b.c.kind === 'pancake-v3')!;
  await (await pancake.pool.getFunction('mint')(world.me, -887220, 887220, 10n ** 18n, '0x')).wait();
  await runToHead(indexer);
  const branchA = await snapshotDb(db);
  assert.ok(branchA.tokens.some((r) => r.symbol === 'BRT'));
  const positionsA = branchA.positions.length;

  // Branch B from the snapshot: other trades, no new pool, no new position.
  assert.equal(await world.rpc('evm_revert', [snapshot]), true);
  for (const { c, pool } of built) await c.swap(pool, usdc, 450n * e6);
  await world.v2Swap(v2.pair, usdc, 450n * e6);
  await v4.api.swap(v4.manager, v4.key, !v4.tokenIs0, 450n * e6);
  await world.mineAt((await world.latest()).timestamp + 60); // B outgrows A: the indexer follows it
  for (const { c, token, pool } of built.slice(0, 3)) await c.swap(pool, token, 20n * e18);
  const step = await indexer.syncOnce();
  assert.ok(step.reorg, 'the first step after the switch rolls back');
  await runToHead(indexer);

  const fresh = await open();
  await runToHead(createIndexer({ db: fresh, chain: client, config: { ...config, batchSize: 1000 } }));
  const expected = await snapshotDb(fresh);
  const actual = await snapshotDb(db);
  assert.ok(!actual.tokens.some((r) => r.symbol === 'BRT'));
  assert.ok(actual.positions.length < positionsA, 'branch A positions rolled back');
  assert.equal(new Set(actual.pools.map((p) => p.family)).size, 7);
  assert.deepEqual(actual, expected);
});
