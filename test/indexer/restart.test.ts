// Restart safety: stopping after a few batches and resuming with a new indexer on the same
// database gives exactly the rows of an uninterrupted run, nothing counted twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createIndexer } from '../../src/indexer/index.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';
import { e18, e6, openV2Market } from './helpers/v2Market.ts';

test('a restart in the middle of a backfill equals an uninterrupted run', async (t) => {
  const { world, client, dbs: [straight, resumed], usdc, tka, weth, usdcWeth, tkaWeth, config: configure } = await openV2Market(t);
  let time = (await world.latest()).timestamp;
  for (let i = 0; i < 12; i++) {
    time += 1800; // half an hour apart: several hourly buckets and a variation window
    await world.rpc('evm_setNextBlockTimestamp', [time]);
    await world.v2Swap(i % 2 ? tkaWeth : usdcWeth, i % 3 ? weth : i % 2 ? tka : usdc, i % 3 ? e18 / 4n : i % 2 ? 100n * e18 : 500n * e6);
  }
  const config = await configure({ batchSize: 4 });

  await runToHead(createIndexer({ db: straight, chain: client, config }));

  const first = createIndexer({ db: resumed, chain: client, config });
  for (let i = 0; i < 3; i++) await first.syncOnce();
  assert.ok((first.status().indexedBlock ?? 0) < (await world.latest()).number, 'stopped mid-backfill');
  await first.stop();
  const second = createIndexer({ db: resumed, chain: client, config });
  await runToHead(second);

  const a = await snapshotDb(straight, { withUpdatedAt: true });
  const b = await snapshotDb(resumed, { withUpdatedAt: true });
  assert.equal(b.swaps.length, 24);
  assert.deepEqual(b.swaps, a.swaps);
  assert.deepEqual(b.pricePoints, a.pricePoints);
  assert.deepEqual(b.tokens, a.tokens);
  // Circulating supplies stored before the stop are read back, and the restart's sweep reads the same figures.
  const circulating = (db: typeof straight) =>
    db.query(`SELECT t.address, t.circulating_supply::text AS circulating, t.market_cap::text AS cap, i.circulating_block IS NOT NULL AS read
       FROM tokens t JOIN indexer_tokens i USING (address) ORDER BY t.address`);
  const straightCirculating = await circulating(straight);
  assert.deepEqual(await circulating(resumed), straightCirculating);
  assert.equal(straightCirculating.length, 3);
  assert.ok(straightCirculating.every((r) => r.read === true));
  assert.deepEqual(b.candles, a.candles);
});
