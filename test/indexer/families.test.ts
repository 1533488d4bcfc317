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
import { type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { getToken } from '../oracles/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { runToHead } from './helpers/runToHead.ts';
import { createWorld, type World } from './helpers/world.ts';
import { familyCases, type Case } from './helpers/familyCases.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
let world: World;
let db: Database;
let client: ReturnType<typeof createChainClient>;
let usdc: Contract;

const CASES: Case[] = familyCases(() => ({ world, usdc }));
const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();

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
  configured.v2 = [await addr(world.v2Factory)];
  db = await openPglite();
  client = createChainClient({ url: world.chain.url });
  const indexer = createIndexer({ db, chain: client, config: world.config({ factories: configured, stablecoins: [await addr(usdc)], batchSize: 25 }) });
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
    if (c.kind === 'solidly' || c.kind === 'syncswap' || c.kind === 'etherex') assert.equal(stored[0]?.stable, c.name.includes('stable'));
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
    const twoTypes = /Solidly|SyncSwap|Etherex/.test(name);
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
    assert.equal(res.body.meta.totalItemsCount, 11);
    assert.equal(res.body.meta.pagesCount, 4);
    if (res.body.data.length === 0) break;
    pages.push(...res.body.data);
  }
  assert.equal(new Set(pages.map((p) => p.address)).size, 11, 'every pool once: 10 with swaps and the second V2 pool');
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
  assert.deepEqual([usdcToken.body.info.priceSource?.family, usdcToken.body.info.priceSource?.kind], ['anchor', 'usd-basket'], 'the only stablecoin is the basket: a peg at 1 USD');
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
  ] as const) {
    const res = await request(app).get(url).expect(400);
    assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
    assert.ok(res.body.errors.some((e: { field: string }) => e.field === field), `${url}: ${JSON.stringify(res.body.errors)}`);
  }
  // The pools endpoint declares no order: one sent is ignored and named (X-Ignored-Parameters).
  const ordered = await request(app).get(`/tokens/${await addr(usdc)}/pools?order=liquidity`).expect(200);
  assert.equal(ordered.headers['x-ignored-parameters'], 'order');
});

test("an Etherex legacy factory whose pairs do not answer stable(): swaps counted, never a price from a guessed invariant", async (t) => {
  // Uniswap V2 pairs have no stable(): listed as Etherex legacy, their flag cannot be read.
  const other = await openPglite();
  t.after(() => other.close());
  const config = world.config({ factories: { 'etherex-legacy': [await addr(world.v2Factory)] }, stablecoins: [await addr(usdc)], batchSize: 1000 });
  await runToHead(createIndexer({ db: other, chain: client, config }));
  const pool = await other.query<{ kind: string; stable: boolean | null }>(`SELECT kind, stable FROM indexer_pools WHERE address = $1`, [await addr(v2.pool)]);
  assert.deepEqual(pool[0], { kind: 'etherex', stable: null });
  const row = await getToken(other, await addr(v2.token));
  assert.ok(row);
  assert.deepEqual({ buys: row.buys, sells: row.sells, price: row.currentPrice }, { buys: 1, sells: 1, price: null });
});
