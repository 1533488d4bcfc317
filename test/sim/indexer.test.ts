// The indexer on the simulated network (demo-size) through the provider profile, configured by the
// simulator's preset file exactly as by a network preset: its answers equal the simulator's truth
// (every pool's head state and price, every token's 24 h swaps, USD prices), its contract checks
// read the simulated contracts without failures, and a restart in the middle of the backfill ends
// with the same rows as an uninterrupted run. The preset indexes head-first (issue 35); the reorg test
// indexes forward, so both ways are checked against the truth.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createChainClient, createRequestBudget, type ChainClient } from '../../src/chain/index.ts';
import { loadIndexerConfig, type IndexerConfig } from '../../src/config/indexerConfig.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { checkAgainstTruth } from '../../bench/index/checkTruth.ts';
import { SimChain } from '../../sim/chain.ts';
import { presetOf } from '../../sim/preset.ts';
import { parseProvider } from '../../sim/provider.ts';
import { startSimServer, type SimServer } from '../../sim/server.ts';
import { computeTruth } from '../../sim/truth.ts';
import { poolStateAt } from '../../sim/calls.ts';
import type { ConcentratedState } from '../../sim/math.ts';
import { isConcentrated } from '../../sim/world.ts';
import { openPglite } from '../helpers/pglite.ts';
import { runToHead } from '../indexer/helpers/runToHead.ts';
import { snapshotDb } from '../indexer/helpers/snapshotDb.ts';

const RPS = 2000;
let chain: SimChain;
let server: SimServer;
let config: IndexerConfig;
const clients: ChainClient[] = [];
const client = () => {
  // The process's budget stays under the provider's rate, as CHAIN_RPS does in production.
  const c = createChainClient({ url: server.url, budget: createRequestBudget({ perSecond: RPS, maxConcurrency: 8 }) });
  clients.push(c);
  return c;
};

before(async () => {
  // Seed 3's chain has Uniswap V4 pools with native ETH (seed 2's has none).
  chain = new SimChain({ profile: 'demo-size', seed: 3 });
  server = await startSimServer(chain, { provider: parseProvider(`rps=${RPS},rtt=2`) });
  const dir = mkdtempSync(join(tmpdir(), 'sim-preset-'));
  const file = join(dir, 'preset.json');
  writeFileSync(file, JSON.stringify(presetOf(chain)));
  config = loadIndexerConfig({ INDEXER_NETWORK_FILE: file });
});
after(async () => {
  for (const c of clients) c.destroy();
  await server.close();
});

test('the indexer on demo-size through the provider profile answers what the truth says; a restart mid-backfill ends identical', async () => {
  // Contract checks run beside the steps and land whenever they finish: off for the two runs compared, on afterwards.
  const quiet = { ...config, contractCheckMaxCalls: 0 };
  const straight = await openPglite();
  const resumed = await openPglite();
  try {
    const indexer = createIndexer({ db: straight, chain: client(), config: quiet });
    await runToHead(indexer);
    assert.equal(indexer.status().indexedBlock, chain.head);
    const result = await checkAgainstTruth((sql) => straight.query(sql), computeTruth(chain));
    assert.deepEqual(result.examples, []);
    assert.ok(result.ok);
    assert.equal(result.pools.checked, chain.world.pools.length);
    assert.ok(chain.world.pools.some((p) => p.native0), 'native-ETH V4 pools among them');
    assert.ok(result.usdPrices.checked > 20, `${result.usdPrices.checked} USD prices checked`);
    assert.ok(server.stats().byMethod.eth_getLogs! > 0);
    await assertPositionsEqualTicks(straight);
    const uninterrupted = await snapshotDb(straight);

    // The same steps (a preset indexes head-first: the catalogue at the head, then the history
    // newest first), stopped in the middle of the history fill. (With other range sizes the rows
    // differ: a token minted without trading keeps the total supply of the last batch end it traded
    // at or of the last 10,000-block refresh, so batch boundaries show in it.)
    assert.equal(quiet.bootstrap, 'head-first');
    const first = createIndexer({ db: resumed, chain: client(), config: quiet });
    for (let i = 0; i < 2; i++) await first.syncOnce();
    assert.ok(!first.status().historyComplete, 'stopped in the middle of the history fill');
    await first.stop();
    await runToHead(createIndexer({ db: resumed, chain: client(), config: quiet }));
    const again = await snapshotDb(resumed);
    assert.ok(again.swaps.length > 500);
    assert.deepEqual(again, uninterrupted);

    // The contract checks read the simulated contracts (code, proxy slots, owner, receipts, a simulated sale) without a failure.
    const checking = createIndexer({ db: straight, chain: client(), config });
    await checking.syncOnce();
    await checking.settleContractChecks();
    assert.ok(checking.status().contractChecks > 0);
    assert.equal(checking.status().contractCheckFailures, 0);
    await checking.stop();
  } finally {
    await straight.close();
    await resumed.close();
  }
});

/** The indexer's positions of every concentrated pool, summed by tick, are the simulated pool's initialized ticks (liquidityNet) at the head. */
async function assertPositionsEqualTicks(db: Awaited<ReturnType<typeof openPglite>>) {
  const rows = await db.query<{ pool: string; tick_lower: number; tick_upper: number; liquidity: string }>(
    'SELECT pool, tick_lower, tick_upper, liquidity::text AS liquidity FROM indexer_pool_positions',
  );
  const stored = new Map<string, Map<number, bigint>>();
  for (const r of rows) {
    const net = stored.get(r.pool) ?? new Map<number, bigint>();
    net.set(r.tick_lower, (net.get(r.tick_lower) ?? 0n) + BigInt(r.liquidity));
    net.set(r.tick_upper, (net.get(r.tick_upper) ?? 0n) - BigInt(r.liquidity));
    stored.set(r.pool, net);
  }
  let pools = 0;
  for (const pool of chain.world.pools) {
    if (!isConcentrated(pool.family)) continue;
    const { book } = poolStateAt(chain, pool, chain.head) as ConcentratedState;
    const want = Object.fromEntries(book.ticks.map((t, i) => [t, book.net[i]!.toString()]));
    const got = Object.fromEntries([...(stored.get(pool.id) ?? new Map<number, bigint>())].filter(([, v]) => v !== 0n).sort((a, b) => a[0] - b[0]).map(([t, v]) => [t, v.toString()]));
    assert.deepEqual(got, want, `pool ${pool.id} (${pool.family}): liquidityNet by tick`);
    pools++;
  }
  assert.ok(pools >= 20, `${pools} concentrated pools' ticks compared`);
}

test('indexed forward from the start block, the indexer follows the simulated chain through a reorganisation and new blocks, and still equals the truth', async () => {
  const db = await openPglite();
  try {
    const quiet = { ...config, contractCheckMaxCalls: 0, bootstrap: 'forward' as const };
    const indexer = createIndexer({ db, chain: client(), config: quiet });
    await runToHead(indexer);
    chain.reorg(12);
    chain.mine(30);
    await runToHead(indexer);
    assert.equal(indexer.status().reorgs, 1);
    assert.equal(indexer.status().indexedBlock, chain.head);
    const result = await checkAgainstTruth((sql) => db.query(sql), computeTruth(chain));
    assert.deepEqual(result.examples, []);
    await assertPositionsEqualTicks(db);
  } finally {
    await db.close();
  }
});
