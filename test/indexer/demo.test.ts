// The whole demo network through the running loop, with a node that fails for a while: the loop
// survives, catches up, follows new blocks, and the demo's special tokens come out as designed,
// circulating supply and market cap included (checked against the chain, /supply/circulating
// and the SQL oracle, through the spec-validated app); its price-change windows (an 8-day history)
// match a recomputation from the stored prices, in the API too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import request from 'supertest';
import { createChainClient } from '../../src/chain/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { getToken, listTokens, recomputePriceWindows, type PriceWindowName } from '../oracles/index.ts';
import { parseSupplyConfig } from '../../src/config/supplyConfig.ts';
import { circulatingFromDemo } from '../../src/demo/circulatingFromDemo.ts';
import { createDemoClient } from '../../src/demo/client.ts';
import { formatFixed, parseFixed, pow10 } from '../../src/indexer/math/fixed.ts';
import { createSupplyService } from '../../src/readModel/supply/createSupplyService.ts';
import { testApp } from '../helpers/testApp.ts';
import type { Token } from '../../src/readModel/types.ts';
import { startDemo, type Demo } from '../../src/demo/index.ts';
import { indexerConfigFromDemo } from '../../src/demo/indexerConfigFromDemo.ts';
import { createIndexer, measureThroughput } from '../../src/indexer/index.ts';
import { TOPICS } from '../../src/indexer/families/events.ts';
import { startProxy } from '../chain/helpers.ts';
import { CANDLE_INTERVALS } from '../../src/config/candleIntervals.ts';
import { readCheckpoint } from '../../src/db/indexer/index.ts';
import { recountCandles, tokenCandleSource, type Rpc } from './helpers/candlesFromLogs.ts';

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** Swap events (every family's layout) on the demo chain in blocks after `afterMs`. */
async function swapsSince(demo: Demo, afterMs: number): Promise<number> {
  const rpc = <T>(method: string, params: unknown[]) => demo.chain.provider.request({ method, params }) as Promise<T>;
  const hex = (n: number) => `0x${n.toString(16)}`;
  const logs = await rpc<{ blockNumber: string }[]>('eth_getLogs', [{
    fromBlock: hex(demo.history.fromBlock), toBlock: 'latest', topics: [[TOPICS.v2Swap, TOPICS.v3Swap, TOPICS.pancakeV3Swap, TOPICS.v4Swap]],
  }]);
  const times = new Map<string, number>();
  for (const block of new Set(logs.map((l) => l.blockNumber))) {
    times.set(block, Number((await rpc<{ timestamp: string }>('eth_getBlockByNumber', [block, false])).timestamp) * 1000);
  }
  return logs.filter((l) => times.get(l.blockNumber)! > afterMs).length;
}

test('demo network: the loop survives node failures, catches up and follows the head', async (t) => {
  const t0 = Date.now();
  // Three hours of fine blocks after two coarse ones, 8 and 4 days back: every window has a start price.
  const demo = await startDemo({ hours: 3, days: 8, coarseIntervalSec: [345_600, 345_600] });
  t.diagnostic(`demo ready in ${Date.now() - t0} ms`);
  // the 3rd to 12th eth_getLogs fail outright (retries exhausted): whole steps fail and the loop must go on
  // (chosen by method, not by request count, so contract-check rounds cannot absorb the failures);
  // later, while failBalances is set, every read with a balanceOf (circulating supplies) fails.
  let failBalances = false;
  let logsRequests = 0;
  const proxy = await startProxy(demo.chain.url, (body) => {
    const failingLogs = body.method === 'eth_getLogs' && ++logsRequests >= 3 && logsRequests < 13;
    return failingLogs || (failBalances && JSON.stringify(body.params).includes('70a08231')) ? { status: 503 } : null;
  });
  const chain = createChainClient({ url: proxy.url, maxRetries: 1, retryBaseMs: 5 });
  const db = await openPglite();
  let running: { stop(): Promise<void> } | undefined;
  t.after(async () => {
    await running?.stop(); // a failed assertion must not leave the loop running
    chain.destroy();
    await db.close();
    await proxy.close();
    await demo.stop();
  });
  // Every batch reads every token's circulating supply (interval 0), so all figures are at the last block.
  const config = indexerConfigFromDemo(demo.deployment, { batchSize: 10, pollIntervalMs: 20, circulatingRefreshMs: 0 });
  // The network token on its L1-synced source, as LINEA is on Linea: its figure must still be /supply/circulating's.
  const demoRules = circulatingFromDemo(demo.deployment);
  const l1Supply = parseSupplyConfig(
    { source: { kind: 'l1Synced', method: 'l1TotalSupply' }, excludedWallets: demoRules.networkToken!.supply.excludedWallets }, 'inline');
  const networkToken = { address: demo.deployment.networkToken.address, supply: l1Supply };
  const indexer = createIndexer({ db, chain, config, circulating: { config: demoRules.config, networkToken } });
  let sawError = false;
  running = indexer;
  await indexer.start();
  const head = demo.history.toBlock;
  await until('catch-up', () => {
    const s = indexer.status();
    if (s.consecutiveErrors > 0) sawError = true;
    return s.indexedBlock === head;
  });
  t.diagnostic(`caught up at ${Date.now() - t0} ms`);
  assert.ok(sawError, 'some steps failed on the way');
  assert.equal(indexer.status().lagBlocks, 0);

  await demo.chain.provider.request({ method: 'evm_mine', params: [] });
  await until('following the head', () => indexer.status().indexedBlock === head + 1);

  // A circulating-supply read that fails neither fails nor holds up the batch: the figure is kept, counted, and read later.
  const d = demo.deployment;
  const client = await createDemoClient(demo.chain);
  const pcat = d.tokens.find((x) => x.symbol === 'PCAT')!.address;
  const pcatBefore = (await getToken(db, pcat))?.circulatingSupply;
  const failuresBefore = indexer.status().circulatingReadFailures;
  failBalances = true;
  await client.send(d.accounts.deployer, pcat, 'DemoToken', 'transfer', ['0x000000000000000000000000000000000000dEaD', 10n ** 18n]);
  await client.mine();
  const burnedAt = (await client.latestBlock()).number;
  await until('indexed while balances cannot be read', () => (indexer.status().indexedBlock ?? 0) >= burnedAt);
  failBalances = false;
  assert.ok(indexer.status().circulatingReadFailures > failuresBefore, 'the failed reads are counted');
  assert.equal((await getToken(db, pcat))?.circulatingSupply, pcatBefore, 'the previous figure is kept');
  await demo.chain.provider.request({ method: 'evm_mine', params: [] });
  const recoveredAt = (await client.latestBlock()).number;
  await until('read again', () => (indexer.status().indexedBlock ?? 0) >= recoveredAt);
  assert.equal((await getToken(db, pcat))?.circulatingSupply, (BigInt(pcatBefore!) - 10n ** 18n).toString(), 'read at the next batch');
  await indexer.stop();
  t.diagnostic(`stopped at ${Date.now() - t0} ms`);
  assert.equal(indexer.status().running, false);

  const row = async (address: string) => {
    const r = await getToken(db, address.toLowerCase());
    assert.ok(r, `token ${address} stored`);
    return r;
  };
  const dustOnly = await row(d.dustOnlyToken);
  assert.equal(dustOnly.currentPrice, null);
  assert.equal(dustOnly.isPossibleSpam, false, 'illiquid is not spam');
  const spam = await row(d.spamToken);
  assert.equal(spam.isPossibleSpam, true);
  assert.equal(spam.isSecure, false);
  const weth = await row(d.weth);
  assert.ok(weth.currentPrice !== null && Number(weth.currentPrice) > 100);
  assert.equal(weth.priceSourceKind, 'pool', 'WETH is priced by its deepest stablecoin pool');
  // USD is the stablecoin basket's median (USDC, USDT, DAI): USDC and USDT, whose pools keep the
  // peg, read 1 within ±0.05 %; the median is one of them (DAI is recovering from its depeg).
  const usdc = await row(d.stablecoins[0]!);
  assert.deepEqual([usdc.priceSourceKind, [d.stablecoins[0], d.stablecoins[1]].map((a) => a!.toLowerCase()).includes(usdc.priceSource!)], ['usd-basket', true]);
  for (const stable of d.stablecoins.slice(0, 2)) {
    const s = await row(stable);
    assert.ok(s.currentPrice !== null && Math.abs(Number(s.currentPrice) - 1) <= 0.0005, `${s.symbol} within 0.05 % of 1 USD: ${s.currentPrice}`);
  }
  const dai = await row(d.stablecoins[2]!);
  assert.ok(dai.currentPrice !== null && Math.abs(Number(dai.currentPrice) - 1) < 0.05 && dai.currentPrice !== '1', `DAI priced by its own market: ${dai.currentPrice}`);
  assert.equal((await row(d.hostileTokens.bytes32Metadata)).symbol, 'MKRC');
  // Pools of every family, each priced token naming its price source (WETH: the feed).
  const families = await db.query<{ family: string }>(`SELECT DISTINCT family FROM pools ORDER BY family`);
  assert.deepEqual(families.map((f) => f.family), ['algebra', 'pancakeswap-v3', 'solidly', 'syncswap', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4']);
  // Uniswap V4: pools named by their id; ORB priced by its V4 pool; the hooked VELA pool, its deepest, never prices it;
  // the native-ETH pool lists WETH as its native token0 and is valued.
  const v4 = (symbol: string) => d.pools.find((p) => p.protocol === 'uniswap-v4' && p.symbol === symbol)!;
  const orb = await row(d.tokens.find((x) => x.symbol === 'ORB')!.address);
  assert.equal(orb.priceSource, v4('ORB/USDC').address, 'ORB is priced by its V4 pool');
  const vela = await row(d.tokens.find((x) => x.symbol === 'VELA')!.address);
  assert.ok(vela.priceSource !== null && vela.priceSource !== v4('VELA/WETH').address, 'the hooked pool never prices VELA');
  const v4Rows = await db.query<{ address: string; hooks: string | null; exclusion: string | null; native: boolean; liquidity: string | null; fee: number | null }>(
    `SELECT address, hooks, price_source_exclusion AS exclusion, token0_native AS native, liquidity::text AS liquidity, fee FROM pools WHERE family = 'uniswap-v4' ORDER BY address`);
  assert.equal(v4Rows.length, 3);
  const hooked = v4Rows.find((r) => r.address === v4('VELA/WETH').address)!;
  assert.deepEqual([hooked.hooks?.toLowerCase(), hooked.exclusion], [v4('VELA/WETH').v4!.key.hooks.toLowerCase(), 'hook-returns-swap-delta']);
  assert.ok(hooked.fee !== null && hooked.fee >= 3000 && hooked.fee <= 9000, `the dynamic fee is the latest swap's: ${hooked.fee}`);
  const native = v4Rows.find((r) => r.address === v4('ETH/USDC').address)!;
  assert.ok(native.native && native.liquidity !== null && Number(native.liquidity) > 100_000, `native ETH/USDC valued: ${native.liquidity}`);
  const priced = await db.query<{ address: string; priceSource: string | null; liquidity: string | null }>(
    `SELECT address, price_source AS "priceSource", liquidity::text AS liquidity FROM tokens WHERE current_price IS NOT NULL`);
  for (const p of priced) {
    assert.ok(p.priceSource !== null, `priced token ${p.address} names its price source`);
    assert.ok(p.liquidity !== null && Number(p.liquidity) > 0, `priced token ${p.address} has liquidity`);
  }
  // Every swap of the last two days of chain time is stored (older ones are pruned, in batches
  // every RETENTION_EVERY_BLOCKS: a few may still wait for the next pruning).
  const stored = await db.query<{ n: number }>(`SELECT count(DISTINCT (block_number, log_index))::int AS n FROM swaps`);
  const headTime = (await db.query<{ t: Date }>(`SELECT block_time AS t FROM indexer_checkpoint`))[0]!.t.getTime();
  const recent = await db.query<{ n: number }>(
    `SELECT count(DISTINCT (block_number, log_index))::int AS n FROM swaps WHERE occurred_at > $1`, [new Date(headTime - 2 * 86_400_000).toISOString()]);
  assert.equal(recent[0]?.n, await swapsSince(demo, headTime - 2 * 86_400_000));
  assert.ok(stored[0]!.n > 0 && (recent[0]?.n ?? 0) < demo.history.swaps, 'the 8-day history has swaps older than two days');

  // marketUpdatedAt is the time of the price-source pool's last event: every priced token whose
  // price-source pool traded in the last 2 h of chain time shows that pool's latest swap.
  const twoHoursAgo = headTime - 2 * 3_600_000;
  const traded = await db.query<{ symbol: string; at: Date; lastSwap: Date }>(
    `SELECT t.symbol, t.market_updated_at AS at, (SELECT max(s.occurred_at) FROM swaps s WHERE s.pool = t.price_source) AS "lastSwap" FROM tokens t
     WHERE t.current_price IS NOT NULL
       AND EXISTS (SELECT 1 FROM swaps s WHERE s.token = t.address AND s.pool = t.price_source AND s.occurred_at > $1)`,
    [new Date(twoHoursAgo).toISOString()]);
  assert.ok(traded.length >= 5, `${traded.length} priced tokens whose price source traded in the last 2 h`);
  for (const r of traded) assert.ok(new Date(r.at).getTime() >= new Date(r.lastSwap).getTime(), `${r.symbol}: marketUpdatedAt ${new Date(r.at).toISOString()} is at or after its pool's last swap`);

  // Price-change windows: as recomputed from the stored price history, every token and window.
  const windows = await recomputePriceWindows(db);
  assert.deepEqual(windows.filter((w) => !w.same), [], 'stored windows equal the recomputation');
  const unpriced = (await db.query<{ address: string }>(`SELECT address FROM tokens WHERE current_price IS NULL ORDER BY address`)).map((r) => r.address);
  assert.ok(unpriced.length > 0 && unpriced.length < windows.length / 4, 'priced and unpriced tokens');
  for (const name of ['h1', 'h6', 'h24', 'd7'] as const) {
    const of = windows.filter((w) => w.window === name);
    // null exactly for the tokens without a price (all the others were priced 8 days ago)
    assert.deepEqual(of.filter((w) => w.expected === null).map((w) => w.address), unpriced, `${name} nulls`);
    assert.ok(of.some((w) => w.expected !== null && Number(w.expected) !== 0), `${name}: some prices moved`);
  }
  const expected = new Map(windows.map((w) => [`${w.address}:${w.window}`, w.expected === null ? null : Number(w.expected)]));
  // The API serves them (responses checked against the spec), 24 h as last24hVariation too.
  const app = testApp(db);
  const all = (await request(app).get('/tokens?limit=100')).body.data as Token[];
  assert.equal(all.length, windows.length / 4);
  for (const t of all) {
    const address = t.contractAddress.toLowerCase();
    const got = t.info.priceChange;
    for (const name of ['h1', 'h6', 'h24', 'd7'] as PriceWindowName[]) assert.equal(got[name], expected.get(`${address}:${name}`), `${t.symbol} ${name}`);
    assert.equal(got.h24, t.last24hVariation);
  }
  // priceUpdatedAt is the time of the block in which currentPrice took its value, for every priced
  // token: walking /prices/{a}/at back from the head, the first block with another price is just before it.
  for (const t of all.filter((x) => x.currentPrice !== null)) {
    let at = (await request(app).get(`/prices/${t.contractAddress}/at?block=${head}`).expect(200)).body as { price: number; timestamp: string; blockNumber: number };
    assert.equal(at.price, t.currentPrice, `${t.symbol}: the price at the head is currentPrice`);
    for (;;) {
      const before = await request(app).get(`/prices/${t.contractAddress}/at?block=${at.blockNumber - 1}`);
      if (before.status !== 200 || before.body.price !== t.currentPrice) break;
      at = before.body;
    }
    assert.equal(t.priceUpdatedAt, at.timestamp, `${t.symbol}: priceUpdatedAt is when the price took its value`);
    assert.ok(t.marketUpdatedAt !== null && t.marketUpdatedAt <= t.updatedAt, `${t.symbol}: marketUpdatedAt ${t.marketUpdatedAt}`);
  }
  // Ordered by the 1 h and 7 d changes as SQL orders the stored columns (nulls last both ways).
  for (const order of ['priceChange1h', 'priceChange7d'] as const) {
    for (const sort of ['asc', 'desc'] as const) {
      const res = await request(app).get(`/tokens?order=${order}&sort=${sort}&limit=100`);
      assert.equal(res.status, 200);
      const sql = await listTokens(db, { page: 1, limit: 100, order, sort });
      assert.deepEqual(res.body.data.map((t: Token) => t.contractAddress), sql.rows.map((r) => r.checksumAddress), `${order} ${sort}`);
      assert.ok(res.body.data.at(-1).info.priceChange[order === 'priceChange1h' ? 'h1' : 'd7'] === null, 'nulls last');
    }
  }
  t.diagnostic(`windows checked at ${Date.now() - t0} ms`);

  // Circulating supply: total supply − zero, dead, the token itself and its excluded wallets, at the last block.
  const call = async (token: string, fn: string, args: unknown[] = []) => (await client.call(token, 'DemoToken', fn, args))[0] as bigint;
  const bySymbol = (symbol: string) => d.tokens.find((x) => x.symbol === symbol)!.address;
  const BURN = ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD'];
  const cases: [string, string[], string][] = [
    ['PCAT', [], 'burned to 0x…dEaD'],
    ['AUG', [], 'held by its own contract'],
    ['HRB', [d.accounts.treasury], 'in the excluded treasury'],
    ['WBTC', [], 'nothing set aside but dead and self'],
  ];
  for (const [symbol, excluded, why] of cases) {
    const address = bySymbol(symbol);
    const total = await call(address, 'totalSupply');
    let aside = 0n;
    for (const holder of [...BURN, address, ...excluded]) aside += await call(address, 'balanceOf', [holder]);
    const stored = await row(address);
    assert.equal(stored.circulatingSupply, (total - aside).toString(), `${symbol}: circulating = total − balances (${why})`);
    if (symbol !== 'WBTC') assert.ok(aside > 0n && BigInt(stored.circulatingSupply!) < total, `${symbol}: ${why} is not circulating`);
    // market cap = price × circulating / 10^decimals, exact, truncated to 18 digits like fdv
    assert.ok(stored.currentPrice !== null, `${symbol} is priced`);
    const expected = formatFixed((parseFixed(stored.currentPrice) * (total - aside)) / pow10(stored.decimals), 18);
    assert.equal(stored.marketCap, expected, `${symbol}: marketCap = price × circulating`);
    assert.ok(Number(stored.marketCap) < Number(stored.fdv) || symbol === 'WBTC');
  }
  assert.equal((await row(d.dustOnlyToken)).marketCap, null, 'no price, no market cap');

  // The network token: GET /tokens/{address} answers what GET /supply/circulating answers at the same block.
  const supply = createSupplyService({
    chain: createChainClient({ url: demo.chain.url, maxRetries: 0 }), tokenAddress: networkToken.address, config: l1Supply, cacheSeconds: 0,
  });
  const supplyApp = testApp(db, { supply });
  const circulating = await request(supplyApp).get(`/supply/circulating?contractAddress=${networkToken.address}&format=json`);
  assert.equal(circulating.status, 200, circulating.text);
  assert.equal(circulating.body.blockNumber, indexer.status().indexedBlock, 'the chain has not moved since the last batch');
  assert.deepEqual(circulating.body.source, { kind: 'l1Synced', method: 'l1TotalSupply()' });
  const linea = await request(supplyApp).get(`/tokens/${networkToken.address}`);
  assert.equal(linea.status, 200, linea.text);
  assert.equal(linea.body.info.circulatingSupply, circulating.body.circulatingSupply.baseUnits);
  const l2Aside = (await Promise.all([...BURN, d.networkToken.address, d.networkToken.treasury, d.networkToken.ecosystem]
    .map((h) => call(d.networkToken.address, 'balanceOf', [h])))).reduce((a, b) => a + b, 0n);
  assert.ok(demo.history.burns + demo.history.l1Syncs > 0);
  assert.notEqual(linea.body.info.circulatingSupply, ((await call(d.networkToken.address, 'totalSupply')) - l2Aside).toString(),
    'the L1-synced source is read, not totalSupply()');
  const lineaRow = await row(networkToken.address);
  assert.equal(lineaRow.marketCap, formatFixed((parseFixed(lineaRow.currentPrice!) * BigInt(lineaRow.circulatingSupply!)) / pow10(18), 18));
  assert.equal(linea.body.info.marketCap, Number(lineaRow.marketCap));

  // Ordered by market cap, both ways, as the SQL oracle orders the stored rows.
  for (const sort of ['desc', 'asc'] as const) {
    const res = await request(supplyApp).get(`/tokens?order=marketCap&sort=${sort}&limit=100`);
    assert.equal(res.status, 200, res.text);
    const oracle = await listTokens(db, { order: 'marketCap', sort, page: 1, limit: 100 });
    assert.deepEqual(res.body.data.map((t: { contractAddress: string }) => t.contractAddress), oracle.rows.map((r) => r.checksumAddress));
    assert.ok(res.body.data.some((t: { info: { marketCap: number | null } }) => t.info.marketCap === null), 'unpriced tokens last');
  }

  // Candles of every interval through the API equal a recount from the node's Swap logs and the
  // price history the indexer recorded; the current close is currentPrice.
  const candlesStarted = Date.now();
  const checkpoint = (await readCheckpoint(db))!;
  const now = new Date(Math.max(Date.now(), checkpoint.blockTime.getTime()) + 1000);
  const candleApp = testApp(db, { now: () => now });
  const rpc: Rpc = (method, params) => demo.chain.provider.request({ method, params }) as never;
  const standard = d.tokens.find((x) => x.kind === 'standard')!;
  for (const address of [d.weth, d.stablecoins[0]!, standard.address]) {
    const token = address.toLowerCase();
    const { decimals, currentPrice } = await row(token);
    const pools = await db.query<{ address: string; token0: string; dex: string }>(`SELECT address, token0, lower(dex) AS dex FROM pools WHERE token0 = $1 OR token1 = $1`, [token]);
    const source = await tokenCandleSource(rpc, db, token, decimals, pools, checkpoint.blockNumber);
    assert.ok(source.swaps.length >= 5, `${address}: ${source.swaps.length} swaps in the node's logs`);
    for (const { name, seconds } of CANDLE_INTERVALS) {
      const res = await request(candleApp).get(`/prices/${address}/candles?interval=${name}`).expect(200);
      const expected = recountCandles(source, seconds, Date.parse(res.body.from), Date.parse(res.body.to), decimals);
      const { volume, ...rest } = res.body.candles as { volume: number[] };
      const { volume: expectedVolume, ...expectedRest } = expected;
      assert.deepEqual(rest, expectedRest, `${address} ${name}`);
      volume.forEach((v, i) => assert.ok(Math.abs(v - expectedVolume[i]!) <= 1e-9 * Math.max(1, expectedVolume[i]!), `${address} ${name} volume ${v} vs ${expectedVolume[i]}`));
      assert.equal(rest.close.at(-1), Number(currentPrice), `${address} ${name}: the current close is currentPrice`);
      assert.equal(rest.swaps.reduce((a, b) => a + b, 0), source.swaps.filter((x) => x.at >= Date.parse(rest.timestamp[0]!)).length);
    }
  }

  t.diagnostic(`candles recounted from the node's logs in ${Date.now() - candlesStarted} ms`);

  const report = await measureThroughput({ url: demo.chain.url, chainId: demo.chain.chainId, config: indexerConfigFromDemo(d) });
  assert.equal(report.swaps, demo.history.swaps);
  t.diagnostic(`throughput: ${JSON.stringify(report)}`);
});
