// Uniswap V4 on the in-process chain: pools of a configured PoolManager are discovered from its
// Initialize events and named by their id; swaps count as buys and sells; the stored state and
// price equal what the test reads back from the chain with extsload (StateLibrary's slots) at the
// same block; liquidity added and removed moves the active liquidity; the native-ETH pool prices
// WETH (the native currency is priced as the wrapped native token); a pool whose hook returns swap
// deltas is listed with its hook and why, and never prices a token although it is the deepest; a
// PoolManager nobody configured is ignored.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Contract, getAddress, ZeroAddress } from 'ethers';
import request from 'supertest';
import { createChainClient } from '../../src/chain/index.ts';
import type { Database } from '../../src/db/index.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { testApp } from '../helpers/testApp.ts';
import { getToken } from '../oracles/index.ts';
import { runToHead } from './helpers/runToHead.ts';
import { DYNAMIC_FEE, v4World, type V4Key } from './helpers/v4.ts';
import { createWorld, type World } from './helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
let world: World;
let db: Database;
let client: ReturnType<typeof createChainClient>;
let manager: Contract;
let v4: Awaited<ReturnType<typeof v4World>>;
let usdc: string;
let weth: string;
let token: string;
const keys: Record<'plain' | 'hooked' | 'native' | 'ignored', V4Key> = {} as never;
const ids: Record<keyof typeof keys, string> = {} as never;
const lower = (a: string) => a.toLowerCase();
const order = (a: string, b: string): [string, string] => (lower(a) < lower(b) ? [a, b] : [b, a]);

before(async () => {
  world = await createWorld();
  v4 = await v4World(world);
  usdc = await (await world.token('USD Coin', 'USDC', 6, 10n ** 15n * e6)).getAddress();
  token = await (await world.token('Token Four', 'TKF', 18, 10n ** 9n * e18)).getAddress();
  weth = await (await world.deploy('WETH9', [])).getAddress();
  manager = await v4.deployManager();
  const ignoredManager = await v4.deployManager();
  const hook = await v4.placeHook(30n);
  const [t0, t1] = order(token, usdc);
  const tokenIs0 = lower(t0) === lower(token);
  const [amount0, amount1] = tokenIs0 ? [100_000n * e18, 200_000n * e6] : [200_000n * e6, 100_000n * e18];
  keys.plain = { currency0: t0, currency1: t1, fee: 3000, tickSpacing: 60, hooks: ZeroAddress };
  keys.hooked = { currency0: t0, currency1: t1, fee: DYNAMIC_FEE, tickSpacing: 60, hooks: hook };
  keys.native = { currency0: ZeroAddress, currency1: usdc, fee: 500, tickSpacing: 10, hooks: ZeroAddress };
  keys.ignored = { ...keys.plain };
  ids.plain = await v4.create(manager, keys.plain, amount0, amount1);
  // Three times deeper than the plain pool: depth alone would make it the token's price source.
  ids.hooked = await v4.create(manager, keys.hooked, amount0 * 3n, amount1 * 3n);
  ids.native = await v4.create(manager, keys.native, 100n * e18, 300_000n * e6); // 3000 USDC per ETH
  ids.ignored = await v4.create(ignoredManager, keys.ignored, amount0, amount1);
  await v4.swap(manager, keys.plain, tokenIs0, 1_000n * e18); // token sell
  await v4.swap(manager, keys.plain, !tokenIs0, 500n * e6); // token buy
  await v4.swap(manager, keys.hooked, !tokenIs0, 700n * e6); // token buy through the hooked pool
  await v4.swap(manager, keys.native, true, 2n * e18); // ETH in
  await v4.swap(manager, keys.native, false, 1_500n * e6); // USDC in
  await v4.swap(ignoredManager, keys.ignored, tokenIs0, 1_000n * e18);
  await v4.modify(manager, keys.plain, -((await v4.state(manager, ids.plain)).liquidity / 10n)); // a tenth of the position removed
  db = await openPglite();
  client = createChainClient({ url: world.chain.url });
  const config = world.config({
    factories: { v4: [lower(await manager.getAddress())] }, stablecoins: [lower(usdc)], wrappedNative: lower(weth), batchSize: 10,
  });
  await runToHead(createIndexer({ db, chain: client, config }));
});

after(async () => {
  await db?.close();
  client?.destroy();
  await world?.stop();
});

test('V4 pools are discovered from Initialize, named by their id, with their hooks and native currency', async () => {
  const rows = await db.query<{ address: string; kind: string; factory: string; token0: string; token1: string; hooks: string | null; native0: boolean; fee: number | null }>(
    `SELECT address, kind, factory, token0, token1, hooks, native0, fee FROM indexer_pools ORDER BY address`);
  assert.deepEqual(rows.map((r) => r.address).sort(), [ids.plain, ids.hooked, ids.native].sort(), 'the unconfigured manager’s pool is ignored');
  for (const r of rows) assert.deepEqual([r.kind, r.factory], ['v4', lower(await manager.getAddress())]);
  const native = rows.find((r) => r.address === ids.native)!;
  assert.deepEqual([native.token0, native.token1, native.native0, native.fee], [lower(weth), lower(usdc), true, 500], 'ETH is kept as WETH');
  const hooked = rows.find((r) => r.address === ids.hooked)!;
  assert.deepEqual([hooked.hooks, hooked.fee], [lower(keys.hooked.hooks), null], 'a dynamic-fee key announces no fee');
  assert.equal(await getToken(db, '0x0000000000000000000000000000000000000000'), undefined, 'the native currency is no token of its own');
});

test('stored pool states equal extsload at the head: √price, tick, active liquidity (after a removal), the latest swap fee', async () => {
  for (const name of ['plain', 'hooked', 'native'] as const) {
    const chain = await v4.state(manager, ids[name]);
    const [stored] = await db.query<{ sqrt: string; liquidity: string; tick: number; fee: number | null }>(
      `SELECT sqrt_price_x96::text AS sqrt, liquidity::text AS liquidity, tick, fee FROM indexer_pool_states WHERE pool = $1 ORDER BY block_number DESC LIMIT 1`, [ids[name]]);
    assert.deepEqual([BigInt(stored!.sqrt), BigInt(stored!.liquidity), stored!.tick], [chain.sqrtPriceX96, chain.liquidity, chain.tick], name);
    assert.equal(stored!.fee, chain.lpFee, `${name}: the fee of its latest swap`);
  }
  const hooked = await v4.state(manager, ids.hooked);
  assert.ok(hooked.lpFee >= 3000 && hooked.lpFee <= 9000, `the hook set the fee: ${hooked.lpFee}`);
});

test('swaps count as buys and sells; prices equal the computation from extsload; the hooked pool never prices', async () => {
  const row = await getToken(db, lower(token));
  assert.ok(row);
  assert.deepEqual({ buys: row.buys, sells: row.sells, swaps: row.swaps }, { buys: 2, sells: 1, swaps: 3 });
  assert.equal(row.priceSource, ids.plain, 'priced by the plain pool, not by the deeper hooked one');
  const [change] = await db.query<{ block: string }>(`SELECT max(block_number)::text AS block FROM indexer_price_changes WHERE token = $1`, [lower(token)]);
  const { sqrtPriceX96 } = await v4.state(manager, ids.plain, Number(change!.block));
  const tokenIs0 = lower(keys.plain.currency0) === lower(token);
  const ratio = Number(sqrtPriceX96) ** 2 / 2 ** 192; // token1 base units per token0 base unit
  // USDC base units per token base unit, × 10^18 / 10^6 for whole units (USDC is the 1 USD peg).
  const expected = (tokenIs0 ? ratio : 1 / ratio) * 1e12;
  assert.ok(Math.abs(Number(row.currentPrice) / expected - 1) < 1e-12, `stored ${row.currentPrice}, from extsload ${expected}`);

  // WETH is priced by the native ETH/USDC pool (USDC is the peg): the native currency counts as WETH.
  const wethRow = await getToken(db, lower(weth));
  assert.equal(wethRow?.priceSource, ids.native);
  const native = await v4.state(manager, ids.native);
  const usdcPerEth = (Number(native.sqrtPriceX96) ** 2 / 2 ** 192) * 1e12;
  assert.ok(Math.abs(Number(wethRow!.currentPrice) / usdcPerEth - 1) < 1e-12, `WETH ${wethRow!.currentPrice}, from the native pool ${usdcPerEth}`);
});

test('through the API: pools by id, the hooked pool with its hook and why it never prices, the native token0', async () => {
  const app = testApp(db);
  const pools = (await request(app).get(`/tokens/${token}/pools`).expect(200)).body.data as Record<string, unknown>[];
  const hooked = pools.find((p) => p.address === ids.hooked)!;
  assert.deepEqual([hooked.family, hooked.hooks, hooked.priceSourceExclusion, hooked.dex], ['uniswap-v4', getAddress(keys.hooked.hooks), 'hook-returns-swap-delta', await manager.getAddress()]);
  const plain = pools.find((p) => p.address === ids.plain)!;
  assert.deepEqual([plain.hooks, plain.priceSourceExclusion, plain.fee], [null, null, 3000]);
  const info = (await request(app).get(`/tokens/${token}`).expect(200)).body.info;
  assert.equal(info.priceSource.address, ids.plain, 'info.priceSource names the V4 pool by its id');
  const ethPools = (await request(app).get(`/tokens/${weth}/pools`).expect(200)).body.data as { address: string; token0: { native: boolean; symbol: string } }[];
  const native = ethPools.find((p) => p.address === ids.native)!;
  assert.deepEqual(native.token0, { address: getAddress(weth), symbol: 'WETH', native: true });
});
