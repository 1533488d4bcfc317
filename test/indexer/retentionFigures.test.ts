// Pruning and the token figures (src/indexer/writeBatch.ts retentionReachesFigures): with price
// changes kept at least as long as the longest window (7 days) and swaps at least a day, pruning
// deletes nothing a figure reads, so the batch after it goes on from the stored figures instead of
// rewriting every priced token (on a network of 20,000 priced tokens that one batch took seconds,
// every 1,000 blocks); with a shorter retention it still starts from scratch. Either way the
// figures equal those of an indexer restarted at every step (which always computes from scratch).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retentionDefaults } from '../../src/config/retentionConfig.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { retentionReachesFigures } from '../../src/indexer/writeBatch.ts';
import { openPglite } from '../helpers/pglite.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';
import { e18, e6, openV2Market } from './helpers/v2Market.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

test('pruning reaches the figures only when price changes are kept less than 7 days or swaps less than a day', () => {
  assert.equal(retentionReachesFigures(retentionDefaults), false);
  assert.equal(retentionReachesFigures({ priceChanges: 7 * DAY, swaps: DAY }), false);
  assert.equal(retentionReachesFigures({ priceChanges: null, swaps: null }), false);
  assert.equal(retentionReachesFigures({ priceChanges: 7 * DAY - 1, swaps: 2 * DAY }), true);
  assert.equal(retentionReachesFigures({ priceChanges: 90 * DAY, swaps: DAY - 1 }), true);
});

test('the batch after pruning rewrites only the tokens whose figures moved, and they equal a from-scratch index\'s', async (t) => {
  const { world, client, dbs: [kept, restarted], usdc, tka, weth, usdcWeth, tkaWeth, config: configure } = await openV2Market(t);
  const short = await openPglite();
  t.after(() => short.close());
  let time = (await world.latest()).timestamp;
  const trade = async (i: number) => world.v2Swap(i % 2 ? tkaWeth : usdcWeth, i % 3 ? weth : i % 2 ? tka : usdc, i % 3 ? e18 / 4n : i % 2 ? 100n * e18 : 500n * e6);
  for (let i = 0; i < 8; i++) {
    time += 1800;
    await world.rpc('evm_setNextBlockTimestamp', [time]);
    await trade(i);
  }
  // Pruning in every batch; 8 days of price changes and 2 of swaps, against 26 hours of both (below
  // what RETENTION_* accept: only to see the other branch).
  const longer = { ...retentionDefaults, everyBlocks: 1, priceChanges: 8 * DAY, swaps: 2 * DAY };
  const shorter = { ...retentionDefaults, everyBlocks: 1, priceChanges: 26 * HOUR, swaps: 26 * HOUR };
  const keptConfig = await configure({ batchSize: 1, retention: longer });
  const following = createIndexer({ db: kept, chain: client, config: keptConfig });
  const shortIndexer = createIndexer({ db: short, chain: client, config: await configure({ batchSize: 1, retention: shorter }) });
  await runToHead(following);
  await runToHead(shortIndexer);
  const priced = (await kept.query<{ n: number }>(`SELECT count(*)::int AS n FROM tokens WHERE current_price IS NOT NULL`))[0]!.n;
  assert.equal(priced, 3);

  // A block a second later without events: no window moved, pruning ran in the batch before.
  await world.mineAt(time + 1);
  const keptStep = await following.syncOnce();
  const shortStep = await shortIndexer.syncOnce();
  assert.equal(keptStep.batch?.tokensWritten, 0, 'kept 8 days: no token row rewritten');
  assert.equal(shortStep.batch?.tokensWritten, priced, 'kept 26 hours: every priced token rewritten');

  // Days later pruning deletes swaps and price changes; the kept index follows block by block and
  // its figures equal those of an index restarted at every step.
  time += 1 + 3 * 86_400;
  for (let i = 0; i < 10; i++) {
    time += i === 5 ? 6 * 86_400 : 2400;
    await world.rpc('evm_setNextBlockTimestamp', [time]);
    await trade(i + 1);
  }
  let pruned = false;
  for (let step = 0; ; step++) {
    const result = await following.syncOnce();
    const fresh = createIndexer({ db: restarted, chain: client, config: keptConfig });
    while ((fresh.status().indexedBlock ?? -1) < (following.status().indexedBlock ?? -1)) await fresh.syncOnce();
    await fresh.stop();
    const left = (await kept.query<{ n: number }>(`SELECT count(*)::int AS n FROM swaps`))[0]!.n;
    pruned ||= left < 2 * 18;
    assert.deepEqual((await snapshotDb(kept, { figuresOnly: true })).tokens, (await snapshotDb(restarted, { figuresOnly: true })).tokens, `step ${step}: token figures`);
    if (result.caughtUp) break;
  }
  assert.ok(pruned, 'pruning deleted swaps on the way');
});
