// The whole demo network through the running loop, with a node that fails for a while: the loop
// survives, catches up, follows new blocks, and the demo's special tokens come out as designed;
// its price-change windows (an 8-day history) match a recomputation from the stored prices, in
// the API too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import request from 'supertest';
import { createChainClient } from '../../src/chain/index.ts';
import { createDatabase } from '../../src/db/index.ts';
import { getToken, listTokens, recomputePriceWindows, type PriceWindowName } from '../oracles/index.ts';
import { testApp } from '../helpers/testApp.ts';
import type { Token } from '../../src/readModel/types.ts';
import { startDemo, type Demo } from '../../src/demo/index.ts';
import { indexerConfigFromDemo } from '../../src/demo/indexerConfigFromDemo.ts';
import { createIndexer, measureThroughput } from '../../src/indexer/index.ts';
import { TOPICS } from '../../src/indexer/events.ts';
import { startProxy } from '../chain/helpers.ts';

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
    fromBlock: hex(demo.history.fromBlock), toBlock: 'latest', topics: [[TOPICS.v2Swap, TOPICS.v3Swap, TOPICS.pancakeV3Swap]],
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
  // Every swap of the last two days of chain time is stored (older ones are pruned).
  const stored = await db.query<{ n: number }>(`SELECT count(DISTINCT (block_number, log_index))::int AS n FROM swaps`);
  const headTime = (await db.query<{ t: Date }>(`SELECT block_time AS t FROM indexer_checkpoint`))[0]!.t.getTime();
  assert.equal(stored[0]?.n, await swapsSince(demo, headTime - 2 * 86_400_000));
  assert.ok(stored[0]!.n > 0 && stored[0]!.n < demo.history.swaps, 'the 8-day history has older swaps');

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

  const report = await measureThroughput({ url: demo.chain.url, chainId: demo.chain.chainId, config: indexerConfigFromDemo(d) });
  assert.equal(report.swaps, demo.history.swaps);
  t.diagnostic(`throughput: ${JSON.stringify(report)}`);
});
