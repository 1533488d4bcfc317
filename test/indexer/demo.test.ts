// The whole demo network through the running loop, with a node that fails for a while: the loop
// survives, catches up, follows new blocks, and the demo's special tokens come out as designed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChainClient } from '../../src/chain/index.ts';
import { createDatabase } from '../../src/db/index.ts';
import { getToken } from '../oracles/index.ts';
import { startDemo } from '../../src/demo/index.ts';
import { indexerConfigFromDemo } from '../../src/demo/indexerConfigFromDemo.ts';
import { createIndexer, measureThroughput } from '../../src/indexer/index.ts';
import { startProxy } from '../chain/helpers.ts';
import request from 'supertest';
import { CANDLE_INTERVALS } from '../../src/config/candleIntervals.ts';
import { readCheckpoint } from '../../src/db/indexer/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { recountCandles, tokenCandleSource, type Rpc } from './helpers/candlesFromLogs.ts';

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

test('demo network: the loop survives node failures, catches up and follows the head', async (t) => {
  const t0 = Date.now();
  const demo = await startDemo({ hours: 3 });
  t.diagnostic(`demo ready in ${Date.now() - t0} ms`);
  // requests 20..60 fail outright (retries exhausted): whole steps fail and the loop must go on
  const proxy = await startProxy(demo.chain.url, (_body, n) => (n >= 20 && n < 60 ? { status: 503 } : null));
  const chain = createChainClient({ url: proxy.url, maxRetries: 1, retryBaseMs: 5 });
  const db = await createDatabase({ pgliteDir: 'memory://' });
  t.after(async () => {
    chain.destroy();
    await db.close();
    await proxy.close();
    await demo.stop();
  });
  const config = indexerConfigFromDemo(demo.deployment, { batchSize: 10, pollIntervalMs: 20 });
  const indexer = createIndexer({ db, chain, config });
  let sawError = false;
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
  await indexer.stop();
  t.diagnostic(`stopped at ${Date.now() - t0} ms`);
  assert.equal(indexer.status().running, false);

  const d = demo.deployment;
  const row = async (address: string) => {
    const r = await getToken(db, address.toLowerCase());
    assert.ok(r, `token ${address} stored`);
    return r;
  };
  const dustOnly = await row(d.dustOnlyToken);
  assert.equal(dustOnly.currentPrice, null);
  assert.equal(dustOnly.isPossibleSpam, true);
  const spam = await row(d.spamToken);
  assert.equal(spam.isPossibleSpam, true);
  assert.equal(spam.isSecure, false);
  const weth = await row(d.weth);
  assert.ok(weth.currentPrice !== null && Number(weth.currentPrice) > 100);
  assert.equal(weth.isSecure, true);
  for (const stable of d.stablecoins) assert.equal((await row(stable)).currentPrice, '1');
  assert.equal((await row(d.hostileTokens.bytes32Metadata)).symbol, 'MKRC');
  // Pools of every family, each priced token naming its price source (stablecoins excepted).
  const families = await db.query<{ family: string }>(`SELECT DISTINCT family FROM pools ORDER BY family`);
  assert.deepEqual(families.map((f) => f.family), ['algebra', 'pancakeswap-v3', 'solidly', 'syncswap', 'uniswap-v2', 'uniswap-v3']);
  const stableSet = new Set(d.stablecoins.map((a) => a.toLowerCase()));
  const priced = await db.query<{ address: string; priceSource: string | null; liquidity: string | null }>(
    `SELECT address, price_source AS "priceSource", liquidity::text AS liquidity FROM tokens WHERE current_price IS NOT NULL`);
  for (const p of priced) {
    if (stableSet.has(p.address)) continue;
    assert.ok(p.priceSource !== null, `priced token ${p.address} names its price source`);
    assert.ok(p.liquidity !== null && Number(p.liquidity) > 0, `priced token ${p.address} has liquidity`);
  }
  const stored = await db.query<{ n: number }>(`SELECT count(DISTINCT (block_number, log_index))::int AS n FROM swaps`);
  assert.equal(stored[0]?.n, demo.history.swaps);

  // Candles of every interval through the API equal a recount from the node's Swap logs and the
  // price history the indexer recorded; the current close is currentPrice.
  const candlesStarted = Date.now();
  const checkpoint = (await readCheckpoint(db))!;
  const now = new Date(Math.max(Date.now(), checkpoint.blockTime.getTime()) + 1000);
  const app = testApp(db, { now: () => now });
  const rpc: Rpc = (method, params) => demo.chain.provider.request({ method, params }) as never;
  const standard = d.tokens.find((x) => x.kind === 'standard')!;
  for (const address of [d.weth, d.stablecoins[0]!, standard.address]) {
    const token = address.toLowerCase();
    const { decimals, currentPrice } = await row(token);
    const pools = await db.query<{ address: string; token0: string }>(`SELECT address, token0 FROM pools WHERE token0 = $1 OR token1 = $1`, [token]);
    const source = await tokenCandleSource(rpc, db, token, decimals, pools, checkpoint.blockNumber);
    assert.ok(source.swaps.length >= 5, `${address}: ${source.swaps.length} swaps in the node's logs`);
    for (const { name, seconds } of CANDLE_INTERVALS) {
      const res = await request(app).get(`/prices/${address}/candles?interval=${name}`).expect(200);
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
