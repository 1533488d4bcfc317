// Restart safety: stopping after a few batches and resuming with a new indexer on the same
// database gives exactly the rows of an uninterrupted run, nothing counted twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChainClient } from '../../src/chain/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { runToHead } from './helpers/runToHead.ts';
import { snapshotDb } from './helpers/snapshotDb.ts';
import { createWorld } from './helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;

test('a restart in the middle of a backfill equals an uninterrupted run', async (t) => {
  const world = await createWorld();
  const client = createChainClient({ url: world.chain.url });
  const straight = await openPglite();
  const resumed = await openPglite();
  t.after(async () => {
    await straight.close();
    await resumed.close();
    client.destroy();
    await world.stop();
  });
  const usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 12n * e6);
  const weth = await world.token('Wrapped Ether', 'WETH', 18, 10n ** 6n * e18);
  const tka = await world.token('Token A', 'TKA', 18, 10n ** 6n * e18);
  const usdcWeth = await world.v2Pair(usdc, weth, 300_000n * e6, 100n * e18);
  const tkaWeth = await world.v2Pair(tka, weth, 10_000n * e18, 20n * e18);
  let time = (await world.latest()).timestamp;
  for (let i = 0; i < 12; i++) {
    time += 1800; // half an hour apart: several hourly buckets and a variation window
    await world.rpc('evm_setNextBlockTimestamp', [time]);
    await world.v2Swap(i % 2 ? tkaWeth : usdcWeth, i % 3 ? weth : i % 2 ? tka : usdc, i % 3 ? e18 / 4n : i % 2 ? 100n * e18 : 500n * e6);
  }
  const addr = async (c: { getAddress(): Promise<string> }) => (await c.getAddress()).toLowerCase();
  const config = world.config({
    factories: { v2: [await addr(world.v2Factory)] }, stablecoins: [await addr(usdc)], wrappedNative: await addr(weth), batchSize: 4,
  });

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
