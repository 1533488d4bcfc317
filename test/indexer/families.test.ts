// Every DEX family on the in-process chain: its pool is discovered from its factory's creation
// event, its swaps are counted as buys and sells, and the stored price equals a computation written
// here from the pool's on-chain state (reserves, √price) at the same block, to a relative 1e-12.
// A pool of the same contracts created by a factory that is not configured is ignored. Through the
// API (GET /tokens/{a}/pools and the token's info), every pool's 24 h swaps and USD volume equal a
// recount from the node's logs (eth_getLogs, decoded with each contract's own ABI), per family.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Contract, getAddress } from 'ethers';
import request from 'supertest';
import { createChainClient } from '../../src/chain/index.ts';
import { loadContract, type ContractName } from '../../src/chain/contracts.ts';
import { createDatabase, type Database } from '../../src/db/index.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { getToken } from '../oracles/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { runToHead } from './helpers/runToHead.ts';
import { createWorld, MaxUint256, type World } from './helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
let world: World;
let db: Database;
let client: ReturnType<typeof createChainClient>;
let usdc: Contract;

type Case = {
  name: string;
  kind: string;
  /** Creates the pool through `factory`, funds it with `amountToken` / `amountUsdc`, returns it. */
  create(factory: Contract, token: Contract, amountToken: bigint, amountUsdc: bigint): Promise<Contract>;
  factory: { contract: ContractName; args: unknown[] };
  configKey: 'solidlyFactories' | 'syncSwapClassicFactories' | 'syncSwapStableFactories' | 'pancakeV3Factories' | 'algebraFactories' | 'v3Factories';
  /** USD per whole token from the pool's state at `block`, computed here (18-decimal token, 6-decimal USDC). */
  price(pool: Contract, tokenIs0: boolean, block: number): Promise<number>;
  swap(pool: Contract, tokenIn: Contract, amountIn: bigint): Promise<void>;
};

const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();
const send = async (p: Promise<{ wait(): Promise<unknown> }>) => void (await (await p).wait());
const at = (block: number) => ({ blockTag: block });
const Q96 = 2n ** 96n;

// Whole-unit price of an 18-decimal token in 6-decimal USDC from a base-unit ratio num/den (token1 per token0).
const toUsd = (num: bigint, den: bigint, tokenIs0: boolean) => {
  const perBase = tokenIs0 ? { n: num, d: den } : { n: den, d: num };
  const scaled = (perBase.n * 10n ** 18n * 10n ** 18n) / (perBase.d * 10n ** 6n);
  return Number(scaled) / 1e18;
};

// Marginal prices of the stable invariants, on reserves normalised to 18 decimals (x = r·10^(18−d)).
function solidlyStableUsd(r0: bigint, r1: bigint, tokenIs0: boolean) {
  const x = tokenIs0 ? r0 : r0 * 10n ** 12n;
  const y = tokenIs0 ? r1 * 10n ** 12n : r1;
  const num = 3n * x * x * y + y * y * y; // −dy/dx of x³y + xy³ = k, in y per x
  const den = x * x * x + 3n * x * y * y;
  const p = Number((num * 10n ** 18n) / den) / 1e18;
  return tokenIs0 ? p : 1 / p;
}
function curveStableUsd(r0: bigint, r1: bigint, tokenIs0: boolean) {
  const x = Number(tokenIs0 ? r0 : r0 * 10n ** 12n) / 1e18;
  const y = Number(tokenIs0 ? r1 * 10n ** 12n : r1) / 1e18;
  const ann = 2000;
  // D by bisection on Ann(x + y) + D − Ann·D − D³/(4xy) (decreasing in D)
  let lo = 0;
  let hi = 2 * (x + y);
  for (let i = 0; i < 200; i++) {
    const d = (lo + hi) / 2;
    if (ann * (x + y) + d - ann * d - d ** 3 / (4 * x * y) > 0) lo = d;
    else hi = d;
  }
  const d = lo;
  const p = (4 * ann * x * x * y * y + d ** 3 * y) / (4 * ann * x * x * y * y + d ** 3 * x); // y per x
  return tokenIs0 ? p : 1 / p;
}

const reserveCase = (name: string, kind: string, contract: ContractName, args: unknown[], configKey: Case['configKey'], createFn: string, extra: unknown[],
  price: (r0: bigint, r1: bigint, tokenIs0: boolean) => number): Case => ({
  name, kind, factory: { contract, args }, configKey,
  async create(factory, token, amountToken, amountUsdc) {
    await send(factory.getFunction(createFn)(await token.getAddress(), await usdc.getAddress(), ...extra));
    const getter = contract === 'DemoSolidlyFactory' ? 'getPair' : 'getPool';
    const address = (await factory.getFunction(getter)(await token.getAddress(), await usdc.getAddress(), ...extra)) as string;
    const pool = new Contract(address, loadContract('DemoReservePool').abi as never, world.signer);
    await send(token.getFunction('transfer')(address, amountToken));
    await send(usdc.getFunction('transfer')(address, amountUsdc));
    await send(pool.getFunction('mint')(world.me));
    for (const t of [token, usdc]) await send(t.getFunction('approve')(address, MaxUint256));
    return pool;
  },
  async price(pool, tokenIs0, block) {
    const [r0, r1] = (await pool.getFunction('getReserves')(at(block))) as [bigint, bigint];
    return price(r0, r1, tokenIs0);
  },
  async swap(pool, tokenIn, amountIn) {
    await send(pool.getFunction('swap')(await tokenIn.getAddress(), amountIn, world.me));
  },
});

const concentratedCase = (name: string, kind: string, factory: ContractName, poolName: ContractName, configKey: Case['configKey'], fee: number | null, priceView: string): Case => ({
  name, kind, factory: { contract: factory, args: [] }, configKey,
  async create(f, token, amountToken, amountUsdc) {
    const extra = fee === null ? [] : [fee];
    await send(f.getFunction('createPool')(await token.getAddress(), await usdc.getAddress(), ...extra));
    const getter = fee === null ? 'poolByPair' : 'getPool';
    const address = (await f.getFunction(getter)(await token.getAddress(), await usdc.getAddress(), ...extra)) as string;
    const pool = new Contract(address, loadContract(poolName).abi as never, world.signer);
    const tokenIs0 = (await addr(token)) < (await addr(usdc));
    const [a0, a1] = tokenIs0 ? [amountToken, amountUsdc] : [amountUsdc, amountToken];
    let s = a1 * 2n ** 192n / a0;
    let x = s;
    for (let y = (x + 1n) / 2n; y < x; y = (x + s / x) / 2n) x = y;
    s = x;
    await send(pool.getFunction('initialize')(s));
    for (const t of [token, usdc]) await send(t.getFunction('approve')(address, MaxUint256));
    let l = a0 * a1;
    let z = l;
    for (let y = (z + 1n) / 2n; y < z; y = (z + l / z) / 2n) z = y;
    l = z;
    await send(pool.getFunction('mint')(world.me, -887220, 887220, (l * 99n) / 100n, '0x'));
    return pool;
  },
  async price(pool, tokenIs0, block) {
    const [sqrtP] = (await pool.getFunction(priceView)(at(block))) as [bigint];
    return toUsd(sqrtP * sqrtP, Q96 * Q96, tokenIs0);
  },
  async swap(pool, tokenIn, amountIn) {
    const zeroForOne = (await addr(tokenIn)) === ((await pool.getFunction('token0')()) as string).toLowerCase();
    await send(pool.getFunction('swap')(world.me, zeroForOne, amountIn, 0n, '0x'));
  },
});

const CASES: Case[] = [
  reserveCase('Solidly volatile', 'solidly', 'DemoSolidlyFactory', [], 'solidlyFactories', 'createPair', [false], (r0, r1, t0) => toUsd(r1, r0, t0)),
  reserveCase('Solidly stable', 'solidly', 'DemoSolidlyFactory', [], 'solidlyFactories', 'createPair', [true], solidlyStableUsd),
  reserveCase('SyncSwap classic', 'syncswap', 'DemoSyncSwapFactory', [false], 'syncSwapClassicFactories', 'createPool', [], (r0, r1, t0) => toUsd(r1, r0, t0)),
  reserveCase('SyncSwap stable', 'syncswap', 'DemoSyncSwapFactory', [true], 'syncSwapStableFactories', 'createPool', [], curveStableUsd),
  concentratedCase('PancakeSwap V3', 'pancake-v3', 'DemoPancakeV3Factory', 'DemoPancakeV3Pool', 'pancakeV3Factories', 2500, 'slot0'),
  concentratedCase('Algebra', 'algebra', 'DemoAlgebraFactory', 'DemoAlgebraPool', 'algebraFactories', null, 'globalState'),
  concentratedCase('Uniswap V3', 'v3', 'DemoV3Factory', 'DemoV3Pool', 'v3Factories', 3000, 'slot0'),
];

type Built = { c: Case; token: Contract; pool: Contract; ignoredToken: Contract };
const built: Built[] = [];
/** A Uniswap V2 pair with swaps, and a second (smaller, swapless) V2 pool for the first case's token. */
let v2: { token: Contract; pool: Contract; second: Contract };

before(async () => {
  world = await createWorld();
  usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 15n * e6);
  const configured: Record<string, string[]> = {};
  for (const [i, c] of CASES.entries()) {
    const factory = await world.deploy(c.factory.contract, c.factory.args);
    const ignoredFactory = await world.deploy(c.factory.contract, c.factory.args);
    (configured[c.configKey] ??= []).push(await addr(factory));
    const token = await world.token(`Token ${i}`, `TK${i}`, 18, 10n ** 9n * e18);
    const ignoredToken = await world.token(`Ignored ${i}`, `IG${i}`, 18, 10n ** 9n * e18);
    // about 2 USD, 200k USD a side; a stable pool near 1 USD
    const stable = c.name.includes('stable');
    const pool = await c.create(factory, token, 100_000n * e18, (stable ? 110_000n : 200_000n) * e6);
    const ignored = await c.create(ignoredFactory, ignoredToken, 100_000n * e18, 200_000n * e6);
    await c.swap(pool, token, 1_000n * e18); // token sell
    await c.swap(pool, usdc, 500n * e6); // token buy
    await c.swap(pool, usdc, 700n * e6); // token buy
    await c.swap(ignored, ignoredToken, 1_000n * e18);
    built.push({ c, token, pool, ignoredToken });
  }
  const v2Token = await world.token('Token V2', 'TKV2', 18, 10n ** 9n * e18);
  const v2Pool = await world.v2Pair(v2Token, usdc, 100_000n * e18, 200_000n * e6);
  await world.v2Swap(v2Pool, v2Token, 1_000n * e18);
  await world.v2Swap(v2Pool, usdc, 900n * e6);
  v2 = { token: v2Token, pool: v2Pool, second: await world.v2Pair(built[0]!.token, usdc, 10_000n * e18, 20_000n * e6) };
  configured.v2Factories = [await addr(world.v2Factory)];
  db = await createDatabase({ pgliteDir: 'memory://' });
  client = createChainClient({ url: world.chain.url, chainId: world.chain.chainId });
  const indexer = createIndexer({ db, chain: client, config: world.config({ ...configured, stablecoins: [await addr(usdc)], batchSize: 25 }) });
  await runToHead(indexer);
});

after(async () => {
  await db?.close();
  client?.destroy();
  await world?.stop();
});

for (const c of CASES) {
  test(`${c.name}: discovered from its factory, swaps counted, price from the pool's state`, async () => {
    const { token, pool, ignoredToken } = built.find((b) => b.c === c)!;
    const stored = await db.query<{ kind: string; stable: boolean | null }>(`SELECT kind, stable FROM indexer_pools WHERE address = $1`, [await addr(pool)]);
    assert.equal(stored[0]?.kind, c.kind);
    if (c.kind === 'solidly' || c.kind === 'syncswap') assert.equal(stored[0]?.stable, c.name.includes('stable'));
    const row = await getToken(db, await addr(token));
    assert.ok(row, 'token stored');
    assert.deepEqual({ buys: row.buys, sells: row.sells, swaps: row.swaps }, { buys: 2, sells: 1, swaps: 3 });
    const tokenIs0 = (await addr(token)) < (await addr(usdc));
    const changes = await db.query<{ block: string }>(`SELECT max(block_number)::text AS block FROM indexer_price_changes WHERE token = $1`, [await addr(token)]);
    const expected = await c.price(pool, tokenIs0, Number(changes[0]?.block));
    const actual = Number(row.currentPrice);
    assert.ok(Math.abs(actual / expected - 1) < 1e-12, `${c.name}: stored ${row.currentPrice}, from the pool ${expected}`);
    // the same contracts from a factory nobody configured: no pool, no token, no swap
    assert.ok(!(await getToken(db, await addr(ignoredToken))), "a token seen only in an unconfigured factory's pool is not stored");
    const ignoredSwaps = await db.query(`SELECT 1 FROM swaps WHERE token = $1`, [await addr(ignoredToken)]);
    assert.equal(ignoredSwaps.length, 0);
  });
}

/** |base units| of token0 and token1 a Swap log moved, from the pool contract's own ABI. */
function swapAmounts(args: Record<string, bigint>): [bigint, bigint] {
  const abs = (x: bigint) => (x < 0n ? -x : x);
  if ('amount0In' in args) return [abs(args.amount0In! - args.amount0Out!), abs(args.amount1In! - args.amount1Out!)];
  return [abs(args.amount0!), abs(args.amount1!)];
}

const near = (actual: number, expected: number, what: string) =>
  assert.ok(expected === 0 ? actual === 0 : Math.abs(actual / expected - 1) < 1e-9, `${what}: API ${actual}, recounted ${expected}`);

test("pools and token figures through the API equal a recount from the node's logs, per family", async () => {
  const app = testApp(db);
  const usdcAddress = await addr(usdc);
  const head = await world.latest();
  // The token's USD price in force at the end of a block, as the indexer recorded it.
  const priceAt = async (token: string, block: number) => {
    const rows = await db.query<{ price: string | null }>(
      `SELECT price::text AS price FROM indexer_price_changes WHERE token = $1 AND block_number <= $2 ORDER BY block_number DESC LIMIT 1`, [token, block]);
    return rows[0]?.price == null ? 0 : Number(rows[0].price);
  };
  const cases = [...built.map((b) => ({ name: b.c.name, token: b.token, pool: b.pool })), { name: 'Uniswap V2', token: v2.token, pool: v2.pool }];
  const perFamily = new Map<string, { swaps: number; volume: number }>();
  let usdcVolume = 0;
  for (const { name, token, pool } of cases) {
    const tokenAddress = await addr(token);
    const poolAddress = await addr(pool);
    const tokenIs0 = tokenAddress < usdcAddress;
    let swaps = 0;
    let poolVolume = 0;
    let tokenVolume = 0;
    for (const log of await world.provider.getLogs({ address: poolAddress, fromBlock: 0, toBlock: head.number })) {
      const event = pool.interface.parseLog(log);
      if (event?.name !== 'Swap') continue;
      swaps++;
      const [a0, a1] = swapAmounts(event.args.toObject() as Record<string, bigint>);
      const [amountToken, amountUsdc] = tokenIs0 ? [a0, a1] : [a1, a0];
      const tokenUsd = (Number(amountToken) / 1e18) * (await priceAt(tokenAddress, log.blockNumber));
      const usdcUsd = Number(amountUsdc) / 1e6;
      poolVolume += Math.max(tokenUsd, usdcUsd);
      tokenVolume += tokenUsd;
      usdcVolume += usdcUsd;
    }
    assert.ok(swaps >= 2, `${name}: swaps in the logs`);
    const res = await request(app).get(`/tokens/${tokenAddress}/pools`).expect(200);
    const entry = res.body.data.find((p: { address: string }) => p.address === getAddress(poolAddress));
    assert.ok(entry, `${name}: the pool is listed for its token`);
    assert.equal(entry.swaps24h, swaps, `${name}: swaps24h`);
    const twoTypes = /Solidly|SyncSwap/.test(name);
    assert.equal(entry.stable, twoTypes ? name.includes('stable') : null, `${name}: stable flag`);
    assert.equal(entry.fee, { 'PancakeSwap V3': 2500, 'Uniswap V3': 3000 }[name] ?? null, `${name}: fee`);
    assert.ok(entry.price > 0, `${name}: spot price`);
    near(entry.volume24h, poolVolume, `${name}: pool volume24h`);
    const tokenRes = await request(app).get(`/tokens/${tokenAddress}`).expect(200);
    near(tokenRes.body.info.volume24h, tokenVolume, `${name}: token volume24h`);
    assert.equal(tokenRes.body.info.priceSource?.address, getAddress(poolAddress), `${name}: price source`);
    assert.equal(tokenRes.body.info.priceSource.swaps24h, swaps);
    const family = entry.family as string;
    const f = perFamily.get(family) ?? { swaps: 0, volume: 0 };
    perFamily.set(family, { swaps: f.swaps + swaps, volume: f.volume + poolVolume });
  }
  assert.deepEqual([...perFamily.keys()].sort(), ['algebra', 'pancakeswap-v3', 'solidly', 'syncswap', 'uniswap-v2', 'uniswap-v3']);

  // USDC is in every pool: its pools page through the whole list, liquidity descending, and its
  // volume is every swap's USDC side (priced at 1); per family the API's sums equal the recount.
  const pages: { address: string; family: string; liquidity: number | null; swaps24h: number; volume24h: number }[] = [];
  for (let page = 1; ; page++) {
    const res = await request(app).get(`/tokens/${usdcAddress.toUpperCase().replace('0X', '0x')}/pools?limit=3&page=${page}`).expect(200);
    assert.equal(res.body.meta.totalItemsCount, 9);
    assert.equal(res.body.meta.pagesCount, 3);
    if (res.body.data.length === 0) break;
    pages.push(...res.body.data);
  }
  assert.equal(new Set(pages.map((p) => p.address)).size, 9, 'every pool once: 8 with swaps and the second V2 pool');
  const liquidities = pages.map((p) => p.liquidity);
  assert.ok(liquidities.every((l) => l !== null && l > 0), 'every pool is priced');
  assert.deepEqual(liquidities, [...liquidities].sort((a, b) => b! - a!), 'liquidity descending');
  for (const [family, recount] of perFamily) {
    const api = pages.filter((p) => p.family === family);
    assert.equal(api.reduce((n, p) => n + p.swaps24h, 0), recount.swaps, `${family}: swaps`);
    near(api.reduce((n, p) => n + p.volume24h, 0), recount.volume, `${family}: volume`);
  }
  const usdcToken = await request(app).get(`/tokens/${usdcAddress}`).expect(200);
  near(usdcToken.body.info.volume24h, usdcVolume, 'USDC volume24h');
  assert.equal(usdcToken.body.info.priceSource, null, 'a stablecoin has no price source');
  near(usdcToken.body.info.liquidity, pages.reduce((n, p) => n + p.liquidity!, 0), 'USDC liquidity is the sum of its pools');

  // A token with two pools: the larger first; its liquidity is the two pools' sum; a reserve pool's
  // liquidity is its reserves at the tokens' prices.
  const first = built[0]!;
  const firstAddress = await addr(first.token);
  const res = await request(app).get(`/tokens/${firstAddress}/pools`).expect(200);
  assert.deepEqual(res.body.data.map((p: { address: string }) => p.address), [getAddress(await addr(first.pool)), getAddress(await addr(v2.second))]);
  const tokenPrice = await priceAt(firstAddress, head.number);
  for (const [i, pool] of [first.pool, v2.second].entries()) {
    const [r0, r1] = (await pool.getFunction('getReserves')()) as [bigint, bigint];
    const tokenIs0 = firstAddress < usdcAddress;
    const [rToken, rUsdc] = tokenIs0 ? [r0, r1] : [r1, r0];
    near(res.body.data[i].liquidity, (Number(rToken) / 1e18) * tokenPrice + Number(rUsdc) / 1e6, `pool ${i} liquidity`);
  }
  const token = await request(app).get(`/tokens/${firstAddress}`).expect(200);
  near(token.body.info.liquidity, res.body.data[0].liquidity + res.body.data[1].liquidity, 'token liquidity');
  const byLiquidity = await request(app).get('/tokens?order=liquidity&sort=desc&limit=100').expect(200);
  assert.equal(byLiquidity.body.data[0].contractAddress, getAddress(usdcAddress), 'USDC, in every pool, has the most liquidity');
});

test('the pools endpoint: 404 problem for an unknown token, 400 naming the bad field', async () => {
  const app = testApp(db);
  const unknown = await request(app).get(`/tokens/0x${'12'.repeat(20)}/pools`).expect(404);
  assert.match(unknown.headers['content-type'] ?? '', /application\/problem\+json/);
  for (const [url, field] of [
    ['/tokens/0x123/pools', 'contractAddress'],
    [`/tokens/${await addr(usdc)}/pools?limit=0`, 'limit'],
    [`/tokens/${await addr(usdc)}/pools?limit=101`, 'limit'],
    [`/tokens/${await addr(usdc)}/pools?page=abc`, 'page'],
    [`/tokens/${await addr(usdc)}/pools?order=liquidity`, 'order'],
  ] as const) {
    const res = await request(app).get(url).expect(400);
    assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
    assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), `${url}: ${JSON.stringify(res.body.errors)}`);
  }
});
