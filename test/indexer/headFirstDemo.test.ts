// Head-first bootstrap on the demo network (every family, the demo's special tokens, its
// Chainlink-style USD feed anchoring WETH, a token list): once history is filled, everything the API
// reads equals a forward index of the same chain.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChainClient } from '../../src/chain/index.ts';
import { startDemo } from '../../src/demo/index.ts';
import { indexerConfigFromDemo } from '../../src/demo/indexerConfigFromDemo.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';

test('demo network: a head-first bootstrap, once filled, equals a forward index (USD feed anchor included)', async (t) => {
  const demo = await startDemo({ hours: 2 });
  const chain = createChainClient({ url: demo.chain.url });
  const [forwardDb, headFirstDb] = [await openPglite(), await openPglite()];
  t.after(async () => {
    chain.destroy();
    await forwardDb.close();
    await headFirstDb.close();
    await demo.stop();
  });
  const config = indexerConfigFromDemo(demo.deployment, { batchSize: 200, contractCheckMaxCalls: 0 });
  assert.ok(config.usdFeed, 'the demo anchors WETH with its feed');
  await runToHead(createIndexer({ db: forwardDb, chain, config }));
  const headFirst = createIndexer({ db: headFirstDb, chain, config: { ...config, bootstrap: 'head-first', historyRangeBlocks: 150 } });
  const first = await headFirst.syncOnce();
  assert.ok(first.bootstrap && first.bootstrap.pricedTokens > 5, `the catalogue at the head (${JSON.stringify(first.bootstrap)})`);
  await runToHead(headFirst);
  const a = await snapshotDb(forwardDb);
  const b = await snapshotDb(headFirstDb);
  assert.ok(b.swaps.length > 100, `${b.swaps.length} swap rows`);
  for (const key of Object.keys(a) as (keyof typeof a)[]) assert.deepEqual(b[key], a[key], key);
});
