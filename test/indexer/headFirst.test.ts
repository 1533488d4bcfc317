// Head-first bootstrap (issue 35) on one in-process chain with a pool of every DEX family: the
// catalogue stored by the first step equals a forward index's at the head; once history is filled,
// everything the API reads equals a forward index of the same chain; a restart in the middle of the
// fill and reorgs above and below the bootstrap block end identical too; the requests it costs with
// and without blockTimestamp in the node's logs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Contract } from 'ethers';
import request from 'supertest';
import { createChainClient, type ChainClient } from '../../src/chain/index.ts';
import type { IndexerConfig } from '../../src/config/indexerConfig.ts';
import { retentionDefaults } from '../../src/config/retentionConfig.ts';
import { type Database, type Queryable } from '../../src/db/index.ts';
import { readCheckpoint } from '../../src/db/indexer/index.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/services.ts';
import { testApp } from '../helpers/testApp.ts';
import { openScratchPostgres } from '../helpers/testDatabases.ts';
import { familyCases, type Case } from './helpers/familyCases.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';
import { createFamilyPools } from './helpers/familyPools.ts';
import { createWorld, type World } from './helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
let world: World;
let usdc: Contract;
let client: ChainClient;
let forward: IndexerConfig;
let headFirst: IndexerConfig;
const CASES: Case[] = familyCases(() => ({ world, usdc }));
type Built = { c: Case; token: Contract; pool: Contract };
const built: Built[] = [];
const databases: Database[] = [];
const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();
const open = async () => {
  const db = await openPglite();
  databases.push(db);
  return db;
};
let v4Trade: (tokenIn: 'token' | 'usdc', amount: bigint) => Promise<void>;

/**
 * A forward index of the chain as it is now, built once per head block (a database costs seconds)
 * through a client of its own whose logs carry no blockTimestamp, with the requests it cost; its
 * database is not written after, so its snapshot is read once.
 */
type ForwardRun = { db: Database; steps: number; atCatalogue: Record<string, number>; requests: number; byMethod: Record<string, number>; snapshot(): ReturnType<typeof snapshotDb> };
const forwardByHead = new Map<string, Promise<ForwardRun>>();
async function forwardRun(): Promise<ForwardRun> {
  const head = (await world.rpc<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).hash;
  let run = forwardByHead.get(head);
  if (!run) {
    run = (async () => {
      const raw = createChainClient({ url: world.chain.url });
      try {
        const db = await open();
        const indexer = createIndexer({ db, chain: withoutLogTimes(raw), config: forward });
        await indexer.syncOnce();
        const atCatalogue = { ...raw.stats().byMethod };
        const steps = 1 + (await runToHead(indexer));
        const total = raw.stats();
        let snapshot: ReturnType<typeof snapshotDb> | undefined;
        return { db, steps, atCatalogue, requests: total.requests, byMethod: { ...total.byMethod }, snapshot: () => (snapshot ??= snapshotDb(db)) };
      } finally {
        raw.destroy();
      }
    })();
    forwardByHead.set(head, run);
  }
  return run;
}
const forwardIndex = async (): Promise<Database> => (await forwardRun()).db;
const forwardSnapshot = async () => (await forwardRun()).snapshot();

/** A few blocks of trading in every pool, a minute apart. */
async function trade(round: number) {
  for (const { c, token, pool } of built) await c.swap(pool, round % 2 ? usdc : token, round % 2 ? 300n * e6 : 200n * e18);
  await v4Trade(round % 2 ? 'usdc' : 'token', round % 2 ? 300n * e6 : 200n * e18);
  await world.mineAt((await world.latest()).timestamp + 60);
}

before(async () => {
  world = await createWorld();
  usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 15n * e6);
  const pools = await createFamilyPools(world, usdc, CASES);
  const { v2, v4, configured } = pools;
  built.push(...pools.built);
  built.push({ c: { ...CASES[0]!, swap: async (_p, tokenIn, amount) => world.v2Swap(v2.pair, tokenIn, amount) }, token: v2.token, pool: v2.pair });
  v4Trade = (tokenIn, amount) => v4.api.swap(v4.manager, v4.key, tokenIn === 'token' ? v4.tokenIs0 : !v4.tokenIs0, amount);
  const { api, manager, key } = v4;
  for (let round = 0; round < 3; round++) await trade(round);
  // A second position in a concentrated pool and in the V4 pool, below the head.
  const pancake = built.find((b) => b.c.kind === 'pancake-v3')!;
  await (await pancake.pool.getFunction('mint')(world.me, -887220, 887220, 10n ** 18n, '0x')).wait();
  await api.modify(manager, key, 10n ** 15n);
  await trade(3);
  client = createChainClient({ url: world.chain.url });
  forward = world.config({ factories: configured, stablecoins: [await addr(usdc)], batchSize: 50 });
  headFirst = { ...forward, bootstrap: 'head-first', historyRangeBlocks: 17 };
});

after(async () => {
  for (const db of databases) await db.close();
  client?.destroy();
  await world?.stop();
});

const catalogue = async (db: Database) => ({
  tokens: await db.query(
    `SELECT address, name, symbol, decimals, total_supply::text, current_price::text, fdv::text, liquidity::text, price_source, is_possible_spam,
            created_block::text, created_at FROM tokens ORDER BY address`,
  ),
  pools: await db.query(`SELECT address, family, fee, stable, token0, token1, liquidity::text, price::text, created_block::text FROM pools ORDER BY address`),
});

test('head-first: the first step stores the catalogue at the head, equal to a forward index at that block', async () => {
  const expected = await forwardIndex();
  const db = await open();
  const indexer = createIndexer({ db, chain: client, config: headFirst });
  const step = await indexer.syncOnce();
  assert.ok(step.bootstrap, 'the first step bootstraps');
  assert.equal(step.caughtUp, false, 'history is still to fill');
  const head = (await world.latest()).number;
  assert.equal(step.bootstrap.block, head);
  const checkpoint = (await readCheckpoint(db))!;
  assert.deepEqual({ block: checkpoint.blockNumber, from: checkpoint.history?.fromBlock, complete: checkpoint.history?.complete }, { block: head, from: head + 1, complete: false });
  const actual = await catalogue(db);
  assert.equal(new Set(actual.pools.map((p) => p.family)).size, 7, 'pools of every family');
  assert.ok(actual.tokens.filter((t) => t.current_price !== null).length >= CASES.length + 2, 'every token priced');
  assert.deepEqual(actual, await catalogue(expected));
  const swaps = await db.query(`SELECT count(*)::int AS n FROM swaps`);
  assert.equal(swaps[0]!.n, 0, 'no history yet');
});

test('head-first: once history is filled, tokens, swaps, pools, positions, price changes, hourly points and candles equal a forward index', async () => {
  const expected = await forwardIndex();
  const db = await open();
  const indexer = createIndexer({ db, chain: client, config: headFirst });
  const steps = await runToHead(indexer);
  assert.ok(steps > 3, `several history ranges (${steps} steps)`);
  assert.equal(indexer.status().historyComplete, true);
  const a = await forwardSnapshot();
  const b = await snapshotDb(db);
  assert.ok(b.swaps.length > 40 && b.candles.length > 0 && b.pricePoints.length > 0);
  assert.deepEqual(b.priceChanges, a.priceChanges);
  assert.deepEqual(b.candles, a.candles);
  assert.deepEqual(b, a);
  // Each pool's newest state (what the indexer loads) equals the forward index's; a range stores no
  // state below it (one row per pool: the older ones are never read).
  const newest = `SELECT DISTINCT ON (s.pool) s.pool, s.block_number::text AS block, s.reserve0::text AS r0, s.reserve1::text AS r1,
    s.sqrt_price_x96::text AS sqrt_price, s.liquidity::text AS l, s.tick, s.fee, s.block_time, s.provisional
    FROM indexer_pool_states s ORDER BY s.pool, s.block_number DESC`;
  assert.deepEqual(await db.query(newest), await expected.query(newest));
  assert.deepEqual(await db.query(`SELECT pool FROM indexer_pool_states GROUP BY pool HAVING count(*) > 1`), []);
});

test('head-first: a restart in the middle of the history fill ends identical to an uninterrupted forward index', async () => {
  const expected = await forwardIndex();
  const db = await open();
  const first = createIndexer({ db, chain: client, config: headFirst });
  for (let i = 0; i < 3; i++) await first.syncOnce();
  const mid = (await readCheckpoint(db))!.history!;
  assert.ok(!mid.complete && mid.fromBlock < mid.bootstrapBlock, `stopped mid-fill (history from ${mid.fromBlock})`);
  await first.stop();
  // Another range size after the restart: the ranges need not line up. The restarted process holds
  // no start states: its first range reads every pool created before it by call, the next ones only
  // the pools with events.
  const second = createIndexer({ db, chain: client, config: { ...headFirst, historyRangeBlocks: 23 } });
  const firstFill = (await second.syncOnce()).fill!;
  const pools = (await forwardSnapshot()).pools.length;
  assert.ok(firstFill.statesRead >= pools / 2, `after a restart the first range reads every older pool (${firstFill.statesRead} of ${pools})`);
  await runToHead(second);
  assert.deepEqual(await snapshotDb(db), await forwardSnapshot());
});

test('head-first: after every range, the prices carried to the block before it equal the prices a forward index had there', async () => {
  // A pool without events in a range starts it from the state the previous range started from (the
  // catalogue's head state for the first range), not from a read: wrong start states would show here
  // as carried prices unequal to the forward index's, though the end of the fill replaces them.
  const expected = await forwardIndex();
  const inForce = async (block: number) =>
    new Map((await expected.query<{ token: string; price: string; source: string | null }>(
      `SELECT DISTINCT ON (token) token, price::text, source FROM indexer_price_changes WHERE block_number <= $1 ORDER BY token, block_number DESC`, [block],
    )).filter((r) => r.price !== null).map((r) => [r.token, `${r.price} ${r.source}`]));
  const pools = (await forwardSnapshot()).pools.length;
  const db = await open();
  const indexer = createIndexer({ db, chain: client, config: { ...headFirst, historyRangeBlocks: 4 } });
  await indexer.syncOnce();
  let ranges = 0;
  let eventless = 0;
  for (;;) {
    const fill = (await indexer.syncOnce()).fill;
    if (!fill || fill.history.complete) break;
    // Every range but the first after the catalogue was read while the range above it was written.
    assert.equal(fill.readAhead, ranges > 0, `range ${fill.from}–${fill.to} read ahead`);
    ranges++;
    eventless += pools - fill.statesRead;
    const carried = new Map((await db.query<{ token: string; price: string; source: string | null }>(
      `SELECT token, price::text, source FROM indexer_price_changes WHERE carried AND block_number = $1 AND price IS NOT NULL`, [fill.from - 1],
    )).map((r) => [r.token, `${r.price} ${r.source}`]));
    assert.deepEqual(carried, await inForce(fill.from - 1), `prices carried to block ${fill.from - 1}`);
  }
  assert.ok(ranges >= 3 && eventless > ranges, `ranges whose pools mostly had no events (${ranges} ranges, ${eventless} pool-ranges without a read)`);
  await runToHead(indexer);
  assert.deepEqual(await snapshotDb(db), await forwardSnapshot());
});

/**
 * The chain's client as a node answers that puts `blockTimestamp` in logs (the test chain does not):
 * each log gets its block's time, looked up by the test's own provider (not counted as the indexer's).
 */
function withLogTimes(inner: ChainClient): ChainClient {
  const times = new Map<number, number>();
  return {
    ...inner,
    async getLogs(filter) {
      const logs = await inner.getLogs(filter);
      for (const n of new Set(logs.map((l) => l.blockNumber))) {
        if (!times.has(n)) times.set(n, (await world.provider.getBlock(n))!.timestamp);
      }
      return logs.map((l) => ({ ...l, blockTimestamp: times.get(l.blockNumber)! }));
    },
  };
}

/** The chain's client whose logs carry no blockTimestamp. */
function withoutLogTimes(inner: ChainClient): ChainClient {
  return {
    ...inner,
    async getLogs(filter) {
      return (await inner.getLogs(filter)).map(({ blockTimestamp: _dropped, ...log }) => log);
    },
  };
}

test('head-first: requests with and without blockTimestamp in logs, against a forward index', async () => {
  const count = async (config: IndexerConfig, logTimes: boolean) => {
    const raw = createChainClient({ url: world.chain.url });
    const chain = logTimes ? withLogTimes(raw) : withoutLogTimes(raw);
    const db = await open();
    const indexer = createIndexer({ db, chain, config });
    await indexer.syncOnce();
    const atCatalogue = { ...raw.stats().byMethod };
    const steps = 1 + (await runToHead(indexer));
    const total = raw.stats();
    raw.destroy();
    return { steps, atCatalogue, total: total.requests, byMethod: total.byMethod, snapshot: await snapshotDb(db) };
  };
  // The forward index of this chain (built once, through a client of its own, requests counted).
  const { steps, atCatalogue, requests, byMethod } = await forwardRun();
  const fwd = { steps, atCatalogue, total: requests, byMethod, snapshot: await forwardSnapshot() };
  const withTimes = await count(headFirst, true);
  const without = await count(headFirst, false);
  const sum = (m: Record<string, number>) => Object.values(m).reduce((s, n) => s + n, 0);
  const headers = (m: Record<string, number>) => m.eth_getBlockByNumber ?? 0;
  const report = {
    blocks: (await world.latest()).number + 1, historyRangeBlocks: headFirst.historyRangeBlocks,
    forward: { requests: fwd.total, headers: headers(fwd.byMethod) },
    headFirstLogTimes: { catalogueRequests: sum(withTimes.atCatalogue), catalogueHeaders: headers(withTimes.atCatalogue), steps: withTimes.steps, requests: withTimes.total, headers: headers(withTimes.byMethod) },
    headFirstNoLogTimes: { catalogueRequests: sum(without.atCatalogue), catalogueHeaders: headers(without.atCatalogue), steps: without.steps, requests: without.total, headers: headers(without.byMethod) },
  };
  console.log(JSON.stringify(report));
  // The same data either way.
  assert.deepEqual(without.snapshot, withTimes.snapshot);
  assert.deepEqual(withTimes.snapshot, fwd.snapshot);
  // The catalogue costs a fraction of a forward index; with times in logs, headers are read only for
  // the head block, the checkpoint check of a step with no batch, a batch's first and last blocks and the block before each range.
  assert.ok(report.headFirstNoLogTimes.catalogueRequests * 3 < report.forward.requests, 'the catalogue costs under a third of a forward index');
  assert.ok(report.headFirstLogTimes.catalogueHeaders === 1, 'with blockTimestamp, the catalogue reads only the head block');
  assert.ok(report.headFirstLogTimes.headers <= 2 * report.headFirstLogTimes.steps + 2, 'with blockTimestamp, headers per step only');
  assert.ok(report.headFirstLogTimes.headers * 2 < report.headFirstNoLogTimes.headers, 'blockTimestamp in logs saves most header reads');
});

test('head-first: answers name their complete windows; a figure whose window is not filled is null, then a number', async () => {
  await world.mineAt((await world.latest()).timestamp + 2 * 3600); // the head two hours after the trading
  await trade(14);
  const db = await open();
  // Contract checks on: they run beside the steps, behind the catalogue.
  const indexer = createIndexer({ db, chain: client, config: { ...headFirst, historyRangeBlocks: 4, contractCheckMaxCalls: 52 } });
  const app = testApp(db);
  const token = await addr(built.find((b) => b.c.kind === 'v3')!.token);
  const get = async () => (await request(app).get(`/tokens/${token}`).expect(200)).body;
  const pools = async () => (await request(app).get(`/tokens/${token}/pools`).expect(200)).body.data as { volume24h: number | null; swaps24h: number | null }[];

  await indexer.syncOnce(); // the catalogue at the head, no history
  const atHead = await get();
  assert.equal(typeof atHead.currentPrice, 'number', 'the price is served at once');
  assert.equal(typeof atHead.info.liquidity, 'number');
  assert.deepEqual(atHead.completeness.windows, { h1: false, h6: false, h24: false, d7: false });
  assert.equal(typeof atHead.completeness.historyFrom, 'string');
  assert.equal(atHead.completeness.contractChecks, false);
  assert.deepEqual([atHead.info.sells, atHead.info.buys, atHead.info.swaps, atHead.info.volume24h, atHead.last24hVariation], [null, null, null, null, null]);
  assert.deepEqual(atHead.info.priceChange, { h1: null, h6: null, h24: null, d7: null });
  assert.deepEqual((await pools()).map((p) => [p.volume24h, p.swaps24h]), [[null, null]]);
  assert.deepEqual([atHead.info.priceSource.volume24h, atHead.info.priceSource.swaps24h], [null, null]);

  // History is filled newest first: after the last blocks' ranges it reaches back past the two-hour gap.
  let partly = atHead;
  const statesRead: number[] = [];
  for (let i = 0; i < 10 && !partly.completeness.windows.h1; i++) {
    statesRead.push((await indexer.syncOnce()).fill!.statesRead);
    partly = await get();
  }
  // Each range reads by call only the pools with events in it (4 blocks: at most 4 pools); the first
  // starts from the states the catalogue read at the head for the others.
  assert.ok(statesRead.length >= 2 && statesRead.every((n) => n <= 4), `pool states read per range: ${statesRead}`);
  assert.deepEqual(partly.completeness.windows, { h1: true, h6: false, h24: false, d7: false }, JSON.stringify(partly.completeness));
  assert.equal(typeof partly.info.priceChange.h1, 'number', 'the 1 h change is a number once its window is filled');
  assert.equal(partly.info.swaps, null, 'the 24 h counts wait for 24 h of history');

  await runToHead(indexer);
  await indexer.settleContractChecks();
  const complete = await get();
  assert.deepEqual({ ...complete.completeness, contractChecks: undefined }, { windows: { h1: true, h6: true, h24: true, d7: true }, historyFrom: null, contractChecks: undefined });
  const listed = (await request(app).get('/tokens?limit=100').expect(200)).body.data as { completeness: { contractChecks: boolean } }[];
  assert.ok(listed.some((t) => t.completeness.contractChecks), 'tokens whose contract checks ran say so');
  assert.ok(complete.info.swaps > 0 && complete.info.volume24h > 0 && typeof complete.info.priceChange.h1 === 'number');
  assert.ok((await pools()).every((p) => typeof p.volume24h === 'number' && typeof p.swaps24h === 'number'));
});

test('head-first: with a client of its own for the checks, contract-check rounds follow each other while priced tokens are unchecked (one round per step without)', async () => {
  const checkedAfterSteps = async (checksChain: ChainClient | undefined) => {
    const db = await open();
    const indexer = createIndexer({ db, chain: client, checksChain, config: { ...headFirst, contractCheckMaxCalls: 13 } }); // one token per round
    await indexer.syncOnce(); // the catalogue
    const priced = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tokens WHERE current_price IS NOT NULL`))[0]!.n;
    let steps = 0;
    let checked = 0;
    while (checked < priced && steps < 3 * priced) {
      await indexer.syncOnce(); // stores the checks read since the last step, starts a round unless one runs
      steps++;
      await new Promise((r) => setTimeout(r, 300));
      checked = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM indexer_contract_checks`))[0]!.n;
    }
    await indexer.stop();
    return { priced, steps, checked };
  };
  const checksChain = createChainClient({ url: world.chain.url });
  try {
    const backToBack = await checkedAfterSteps(checksChain);
    const perStep = await checkedAfterSteps(undefined);
    process.stdout.write(`# contract checks of ${perStep.priced} priced tokens, one per round: ${backToBack.steps} steps back to back, ${perStep.steps} one round per step\n`);
    assert.ok(backToBack.priced >= 6 && backToBack.checked === backToBack.priced, JSON.stringify(backToBack));
    assert.equal(perStep.checked, perStep.priced, JSON.stringify(perStep));
    assert.ok(perStep.steps >= perStep.priced - 1, `one round of one token per step: ${JSON.stringify(perStep)}`);
    assert.ok(backToBack.steps <= perStep.steps / 2, `rounds back to back: ${JSON.stringify({ backToBack, perStep })}`);
  } finally {
    checksChain.destroy();
  }
});

test('head-first: a never-checked token is checked once a swap of it is stored (its check reads its latest swaps), or once the fill is done', async () => {
  // Ranges of 2 blocks: the first ranges hold the swaps of a few pools only. This chain spans less
  // than the 7-day window, so until the fill is done only tokens with a swap stored are ready.
  const db = await open();
  const checksChain = createChainClient({ url: world.chain.url });
  const indexer = createIndexer({ db, chain: client, checksChain, config: { ...headFirst, historyRangeBlocks: 2, contractCheckMaxCalls: 52 } });
  try {
    await indexer.syncOnce(); // the catalogue
    let waited = 0;
    for (let step = 0; ; step++) {
      assert.ok(step < 500, 'the fill completes');
      const result = await indexer.syncOnce();
      await indexer.settleContractChecks();
      if (result.caughtUp) break;
      const early = await db.query(`SELECT token FROM indexer_contract_checks c WHERE NOT EXISTS (SELECT 1 FROM swaps s WHERE s.token = c.token)`);
      assert.deepEqual(early, [], `step ${step}: tokens checked before a swap of theirs was stored`);
      const unready = await db.query(
        `SELECT address FROM tokens t WHERE current_price IS NOT NULL AND NOT EXISTS (SELECT 1 FROM swaps s WHERE s.token = t.address)`,
      );
      if (unready.length > 0) waited++;
    }
    assert.ok(waited > 0, 'some priced tokens had no swap stored during the fill');
    await indexer.syncOnce();
    await indexer.settleContractChecks();
    await indexer.syncOnce();
    const priced = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tokens WHERE current_price IS NOT NULL`))[0]!.n;
    const checked = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM indexer_contract_checks`))[0]!.n;
    assert.equal(checked, priced, 'every priced token is checked once the fill is done');
  } finally {
    await indexer.stop();
    checksChain.destroy();
  }
});

test('head-first: a reorg above the bootstrap block during the fill is rolled back; the end equals a forward index of the final chain', async () => {
  const db = await open();
  const indexer = createIndexer({ db, chain: client, config: headFirst });
  const boot = (await indexer.syncOnce()).bootstrap!;
  await indexer.syncOnce();
  const snapshot = await world.rpc<string>('evm_snapshot');
  await trade(10); // branch A: indexed, with one more history range
  await indexer.syncOnce();
  assert.ok(((await readCheckpoint(db))!.blockNumber) > boot.block);
  assert.equal(await world.rpc('evm_revert', [snapshot]), true);
  await trade(11); // branch B, longer
  await world.mineAt((await world.latest()).timestamp + 60);
  const step = await indexer.syncOnce();
  assert.ok(step.reorg && step.reorg.to >= boot.block, 'rolled back to a block at or above the bootstrap block');
  assert.equal((await readCheckpoint(db))!.history!.bootstrapBlock, boot.block, 'the bootstrap stands');
  await runToHead(indexer);
  assert.deepEqual(await snapshotDb(db), await forwardSnapshot());
});

test('head-first: a reorg below the bootstrap block drops everything and bootstraps again', async () => {
  const snapshot = await world.rpc<string>('evm_snapshot');
  await trade(12);
  const db = await open();
  const indexer = createIndexer({ db, chain: client, config: headFirst });
  const boot = (await indexer.syncOnce()).bootstrap!;
  await indexer.syncOnce();
  assert.equal(await world.rpc('evm_revert', [snapshot]), true);
  await trade(13); // another branch from below the bootstrap block, longer
  await world.mineAt((await world.latest()).timestamp + 60);
  const step = await indexer.syncOnce();
  assert.ok(step.reorg && step.reorg.to < boot.block, 'nothing at or above the bootstrap block survives');
  assert.equal(await readCheckpoint(db), null);
  const again = await indexer.syncOnce();
  assert.ok(again.bootstrap && again.bootstrap.block > boot.block, 'bootstrapped again at the new head');
  await runToHead(indexer);
  assert.deepEqual(await snapshotDb(db), await forwardSnapshot());
});

test('head-first: history is filled back as far as it is kept (here the 7-day window), not to the start block; what it holds equals a forward index', async () => {
  await world.mineAt((await world.latest()).timestamp + 5 * 86_400); // five days later
  // Blocks between the 7-day window's start and the trading below, so that no range holds both.
  for (let i = 0; i < 30; i++) await world.mineAt((await world.latest()).timestamp + 60);
  await trade(15);
  // The other pools' last events are then inside the 7-day window and outside the 24 h one, so the
  // ranges that reach them store those pools' newest states (their tokens' market time) without
  // touching the 24 h window.
  // A day later, and two days after that, only the first pool trades, each time followed by more
  // blocks than two history ranges hold (17 each here): the ranges around the first of them are older
  // than 24 h, and the other tokens have no record in them.
  for (const days of [1, 2]) {
    await world.mineAt((await world.latest()).timestamp + days * 86_400);
    await built[0]!.c.swap(built[0]!.pool, usdc, 300n * e6);
    for (let i = 0; i < 40; i++) await world.mineAt((await world.latest()).timestamp + 60);
  }
  const db = await open();
  const retention = { ...retentionDefaults, priceChanges: 3_600_000 }; // shorter than the 7-day window: the window wins
  const indexer = createIndexer({ db, chain: client, config: { ...headFirst, retention } });
  // Range by range: once the filled history holds a token's last market event (its source pool's
  // last event), the token row's market time is the forward index's, whichever rows the range rewrote.
  const marketTimes = async (of: Database) => new Map((await of.query<{ address: string; at: Date | null }>(
    `SELECT address, market_updated_at AS at FROM tokens`,
  )).map((r) => [r.address, r.at === null ? null : new Date(r.at).getTime()]));
  const truth = await marketTimes(await forwardIndex());
  // And every token with candles has a priced one after each range (a quiet token's carried row is
  // where a candle answer starts from).
  const withCandles = async (of: Database) => (await of.query<{ token: string }>(
    `SELECT DISTINCT token FROM candles WHERE interval_s = 300 AND close IS NOT NULL ORDER BY token`,
  )).map((r) => r.token);
  const candleTokens = await withCandles(await forwardIndex());
  let checked = 0;
  await indexer.syncOnce();
  for (;;) {
    const fill = (await indexer.syncOnce()).fill;
    if (!fill) break;
    const got = await marketTimes(db);
    for (const [address, at] of truth) {
      if (at === null || at <= fill.history.fromTime.getTime()) continue;
      assert.equal(got.get(address), at, `market time of ${address} after the range ${fill.from}–${fill.to}`);
      checked++;
    }
    assert.deepEqual(await withCandles(db), candleTokens, `tokens with candles after the range ${fill.from}–${fill.to}`);
    if (fill.history.complete) break;
  }
  assert.ok(checked > 0);
  await runToHead(indexer);
  const history = (await readCheckpoint(db))!.history!;
  assert.ok(history.complete && history.fromBlock > 0, `complete from block ${history.fromBlock}`);
  assert.ok(history.fromTime.getTime() <= (await readCheckpoint(db))!.blockTime.getTime() - 7 * 86_400_000, 'the 7 days are covered');
  const token = await addr(built[0]!.token);
  const body = (await request(testApp(db)).get(`/tokens/${token}`).expect(200)).body;
  assert.deepEqual(body.completeness.windows, { h1: true, h6: true, h24: true, d7: true });
  assert.equal(body.completeness.historyFrom, null);

  const expected = await snapshotDb(await forwardIndex(), { withMarketTime: true });
  const actual = await snapshotDb(db, { withMarketTime: true });
  const from = (rows: Record<string, unknown>[]) => rows.filter((r) => Number(r.block_number) >= history.fromBlock);
  // A price unchanged since before the filled history took its value at some time the index cannot
  // see: priceUpdatedAt is then the history's start (the forward index, which saw it, says when).
  const beforeHistory = (rows: Record<string, unknown>[]) => rows.map((r) =>
    r.price_updated_at instanceof Date && r.price_updated_at.getTime() <= history.fromTime.getTime() ? { ...r, price_updated_at: 'at or before the history' } : r);
  assert.deepEqual(beforeHistory(actual.tokens), beforeHistory(expected.tokens), 'token rows, their 7-day change and market time included');
  const quiet = expected.tokens.filter((t) => t.market_updated_at instanceof Date && t.market_updated_at.getTime() < history.fromTime.getTime() + 6 * 86_400_000);
  assert.ok(quiet.length >= 3, `tokens whose market last moved days before the head: ${quiet.length}`);
  assert.deepEqual(actual.pools, expected.pools);
  assert.deepEqual(from(actual.swaps as Record<string, unknown>[]), from(expected.swaps as Record<string, unknown>[]));
  assert.deepEqual(from(actual.priceChanges), from(expected.priceChanges));
  // Candles of buckets wholly inside the filled history: starting after fromTime, the time of block
  // historyFrom − 1 (outside it, where the carried prices are); a bucket starting at that very second
  // holds that block.
  const inside = (rows: Record<string, unknown>[]) => rows.filter((r) => new Date(r.bucket as Date).getTime() > history.fromTime.getTime());
  assert.deepEqual(inside(actual.candles), inside(expected.candles), 'candles inside the filled history');
  assert.ok(actual.swaps.length < expected.swaps.length, 'older history is not filled');
});

test('head-first: the range that fills past the 7-day window\'s start, with history still to fill below it, writes every token\'s 7-day change', async () => {
  // Price changes kept 9 days (longer than this chain): the fill goes on below the 7-day window after the range that crosses its start.
  const retention = { ...retentionDefaults, priceChanges: 9 * 86_400_000 };
  const db = await open();
  const indexer = createIndexer({ db, chain: client, config: { ...headFirst, retention } });
  const changes7d = async (of: Database) => new Map((await of.query<{ address: string; change: string | null }>(
    `SELECT address, price_change_7d::text AS change FROM tokens`,
  )).map((r) => [r.address, r.change]));
  const expected = await changes7d(await forwardIndex());
  assert.ok([...expected.values()].filter((c) => c !== null).length >= 3, 'tokens with a 7-day change');
  await indexer.syncOnce();
  let crossed = false;
  for (;;) {
    const fill = (await indexer.syncOnce()).fill;
    if (!fill) break;
    const head = (await readCheckpoint(db))!.blockTime.getTime();
    if (fill.history.fromTime.getTime() <= head - 7 * 86_400_000) {
      assert.ok(!fill.history.complete, 'history left to fill below the 7-day window');
      assert.deepEqual(await changes7d(db), expected, `7-day changes after the range ${fill.from}–${fill.to}`);
      crossed = true;
      break;
    }
  }
  assert.ok(crossed, 'a range filled past the 7-day window\'s start');
});

test('head-first: history older than the 7-day window waits while contract-check rounds find never-checked tokens, then fills to the end equal to a forward index', async () => {
  // Price changes kept 9 days (longer than this chain): history goes on below the 7-day window. The
  // checks' own client holds every request until the fill has waited once, so a round that picked
  // never-checked tokens is running when the fill passes the window's start; then it answers.
  const retention = { ...retentionDefaults, priceChanges: 9 * 86_400_000 };
  const raw = createChainClient({ url: world.chain.url });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = new Proxy(raw, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || prop === 'destroy' || prop === 'stats') return value;
      return async (...args: unknown[]) => {
        await gate;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const db = await open();
  const config = { ...headFirst, retention, contractCheckMaxCalls: 13, contractCheckTimeoutMs: 120_000 }; // one token a round, never timed out here
  const indexer = createIndexer({ db, chain: client, checksChain: held, config });
  const unchecked = async () =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tokens WHERE current_price IS NOT NULL AND NOT contract_checked`))[0]!.n;
  try {
    await indexer.syncOnce(); // the catalogue
    let waits = 0;
    let olderRanges = 0;
    for (let step = 0; ; step++) {
      assert.ok(step < 3000, 'the fill completes');
      const was = (await readCheckpoint(db))!.history!;
      const result = await indexer.syncOnce();
      const checkpoint = (await readCheckpoint(db))!;
      if (checkpoint.history!.complete) break;
      const belowWeek = was.fromTime.getTime() <= checkpoint.blockTime.getTime() - 7 * 86_400_000;
      if (belowWeek && !result.fill) {
        assert.ok(result.caughtUp, 'a step whose fill waits ends caught up (the loop waits for the next one)');
        if (waits++ === 0) assert.ok(await unchecked() > 0, 'never-checked tokens are left when the fill first waits');
        release();
      }
      if (belowWeek && result.fill) {
        // Once it has waited, older history goes on only when every priced token is checked.
        if (waits > 0) assert.equal(await unchecked(), 0, `older range ${result.fill.from}–${result.fill.to} filled after ${waits} waits`);
        olderRanges++;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(waits > 0 && olderRanges > 0, `older history waited (${waits} steps) and was then filled (${olderRanges} ranges)`);
    await runToHead(indexer);
    await indexer.settleContractChecks();
    assert.deepEqual(await snapshotDb(db), await forwardSnapshot());
  } finally {
    release();
    await indexer.stop();
    raw.destroy();
  }
});

test('head-first on PostgreSQL: a standby takes over in the middle of the history fill and finishes the same index', { skip: skipWithoutPostgres }, async () => {
  const db = await openScratchPostgres(TEST_DATABASE_URL!, 'headfirst');
  databases.push(db);
  const a = createIndexer({ db, chain: client, config: headFirst });
  const b = createIndexer({ db, chain: client, config: { ...headFirst, standbyPollMs: 100 } });
  try {
    assert.ok((await a.syncOnce()).bootstrap, 'the writer bootstraps');
    await a.syncOnce();
    await b.start();
    await until('standby', () => b.status().role === 'standby');
    await a.stop();
    await until('takeover', () => b.status().role === 'leader');
    await until('history filled', async () => (await readCheckpoint(db))?.history?.complete === true);
    assert.deepEqual(await snapshotDb(db), await forwardSnapshot());
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test('head-first: a history range whose write exceeds the statement timeout is tried again smaller, and the fill completes equal to a forward index', async () => {
  // The database here cancels a price-changes insert spanning more than 6 blocks, as a server
  // cancels a statement that runs past statement_timeout (SQLSTATE 57014).
  await forwardIndex();
  const db = await open();
  const spans: { span: number; refused: boolean }[] = [];
  const guard = (q: Queryable): Queryable => ({
    exec: (sql) => q.exec(sql),
    query: (sql, params) => {
      if (sql.includes('INSERT INTO indexer_price_changes') && params) {
        const blocks = (params[1] as number[]).map(Number).filter((_, i) => !(params[5] as boolean[])[i]);
        const span = blocks.length ? Math.max(...blocks) - Math.min(...blocks) : 0;
        spans.push({ span, refused: span > 6 });
        if (span > 6) return Promise.reject(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
      }
      return q.query(sql, params);
    },
  });
  const limited = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'transaction') return <T>(fn: (tx: Queryable) => Promise<T>) => target.transaction((tx) => fn(guard(tx)));
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const indexer = createIndexer({ db: limited, chain: client, config: { ...headFirst, historyRangeBlocks: 40 } });
  let failures = 0;
  for (let step = 0; ; step++) {
    assert.ok(step < 500, 'the fill completes');
    const done = await indexer.syncOnce().then((r) => r.caughtUp, (error: unknown) => {
      assert.equal((error as { code?: string }).code, '57014');
      failures++;
      return false;
    });
    if (done) break;
  }
  assert.ok(failures >= 1 && spans.some((s) => !s.refused && s.span > 0), `ranges were refused (${failures}) and smaller ones stored`);
  assert.deepEqual(await snapshotDb(db), await forwardSnapshot());
});

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
