// The whole demo network through the running loop, with a node that fails for a while: the loop
// survives, catches up, follows new blocks, and the demo's special tokens come out as designed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChainClient } from '../../src/chain/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { getToken } from '../oracles/index.ts';
import { startDemo } from '../../src/demo/index.ts';
import { indexerConfigFromDemo } from '../../src/demo/indexerConfigFromDemo.ts';
import { createIndexer, measureThroughput } from '../../src/indexer/index.ts';
import { startProxy } from '../chain/helpers.ts';

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
  const db = await openPglite();
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

  const report = await measureThroughput({ url: demo.chain.url, chainId: demo.chain.chainId, config: indexerConfigFromDemo(d) });
  assert.equal(report.swaps, demo.history.swaps);
  t.diagnostic(`throughput: ${JSON.stringify(report)}`);
});
