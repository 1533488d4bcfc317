// Exact times where the window edges move (issue 35; src/indexer/exactEdgeTimes.ts): a head-first
// index of a simulated chain whose logs carry no blockTimestamp (bucketed history times) follows the
// head while its history fills. At every window end, the rows in every bucket a window edge has
// reached since the bootstrap hold their block's own time (the simulator's timestamps: an
// independent model), every row whose time is interpolated lies in a bucket still listed as
// inexact, the token figures (1 h change, 24 h counts, variation and volume) equal those of the same
// index fed logs with their times, the 24 h counts equal the simulator's truth, and an indexer
// restarted at every step stores the same rows, second for second, as one that ran through. The
// chain is 3.6 hours long, so the 1 h edge is the one that walks through history here; the 24 h
// edge does the same on the simulated Linea network (bench/index/follow.ts, its counts against the
// truth).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { checkAgainstTruth } from '../../bench/index/checkTruth.ts';
import { SimChain } from '../../sim/chain.ts';
import { presetOf } from '../../sim/preset.ts';
import { parseProvider } from '../../sim/provider.ts';
import { startSimServer, type SimServer } from '../../sim/server.ts';
import { computeTruth } from '../../sim/truth.ts';
import { createChainClient, type ChainClient } from '../../src/chain/index.ts';
import { loadIndexerConfig, type IndexerConfig } from '../../src/config/indexerConfig.ts';
import type { Database } from '../../src/db/index.ts';
import { readCheckpoint } from '../../src/db/indexer/index.ts';
import { createIndexer, type Indexer } from '../../src/indexer/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { assertSameSnapshot, snapshotDb } from '../indexer/helpers/snapshotDb.ts';

const ROUNDS = 17;
const UPGRADE_ROUND = 6;
const SMALL_STEP = 5;
let chain: SimChain;
let config: IndexerConfig;
const servers: SimServer[] = [];
const clients: ChainClient[] = [];
const dbs: Database[] = [];

before(() => {
  // Most blocks of the trading window hold a swap, as on Linea; 80 minutes of trading before the head.
  chain = new SimChain({ profile: 'demo-size', seed: 2, overrides: { swapsPerDay: 30_000 } });
  const file = join(mkdtempSync(join(tmpdir(), 'sim-preset-')), 'preset.json');
  writeFileSync(file, JSON.stringify(presetOf(chain)));
  config = { ...loadIndexerConfig({ INDEXER_NETWORK_FILE: file }), contractCheckMaxCalls: 0, historyRangeBlocks: 500 };
});
after(async () => {
  for (const c of clients) c.destroy();
  for (const s of servers) await s.close();
  for (const db of dbs) await db.close();
});

type Run = { db: Database; indexer: Indexer; restart: () => Indexer };

async function startRun(timestamps: boolean, historyBlockTimes: 'bucketed' | 'exact'): Promise<Run> {
  const server = await startSimServer(chain, { provider: parseProvider(`rps=inf,rtt=0,timestamps=${timestamps ? 1 : 0},range=100000,results=1000000`) });
  servers.push(server);
  const client = createChainClient({ url: server.url });
  clients.push(client);
  const db = await openPglite();
  dbs.push(db);
  const restart = () => createIndexer({ db, chain: client, config: { ...config, historyBlockTimes } });
  return { db, indexer: restart(), restart };
}

type Row = { block: number; at: Date };

/** Every stored row that carries a block time. */
async function timedRows(db: Database): Promise<Row[]> {
  const rows = await db.query<{ n: string; at: Date }>(
    `SELECT block_number::text AS n, occurred_at AS at FROM swaps
     UNION ALL SELECT block_number::text, observed_at FROM indexer_price_changes
     UNION ALL SELECT block_number::text, observed_at FROM price_points`,
  );
  return rows.map((r) => ({ block: Number(r.n), at: new Date(r.at) }));
}

const listed = async (db: Database) =>
  new Set((await db.query<{ bucket: Date }>(`SELECT bucket FROM indexer_inexact_buckets`)).map((r) => new Date(r.bucket).getTime()));

const truthOf = (row: Row) => chain.timestamp(row.block) * 1000;
const BUCKET_MS = 300_000;
const bucketOf = (ms: number) => ms - (ms % BUCKET_MS);
const EDGES_MS = [1, 6, 24, 168].map((h) => h * 3_600_000);
/**
 * Whether a window edge, walking from the bootstrap time back-dated by its window to `at` back-dated
 * by it, has passed the time `t` (ms), counted from the start of the bucket it started in;
 * `ahead`: that much further (an interpolated time is off by less than a bucket).
 */
const edgePassed = (t: number, bootstrap: Date, at: Date, ahead = 0) =>
  at > bootstrap && EDGES_MS.some((ms) => bucketOf(bootstrap.getTime() - ms) <= t && t <= at.getTime() - ms + ahead);
const bucketKey = (d: unknown) => (d instanceof Date ? Math.floor(d.getTime() / BUCKET_MS) : d);

/** Whether both runs' stored history covers `ms` back from the window end `at` (the API answers null before). */
async function covered(dbs: Database[], at: Date, ms: number): Promise<boolean> {
  for (const db of dbs) {
    const window = (await readCheckpoint(db))!.history;
    if (window && !window.complete && window.fromTime.getTime() > at.getTime() - ms) return false;
  }
  return true;
}

/**
 * Turns a run's stored index into one written under the rule before migration 021, which fixed
 * whole buckets up to the one each edge was in: the history rows stored from the end of that bucket
 * to 5 minutes after the edge get another second inside their bucket (up to a minute earlier, as an
 * interpolation may give), their buckets are listed, and the migration's own UPDATE sets
 * edges_fixed_at. Returns how many rows moved.
 */
async function asBeforeMigration021(db: Database): Promise<number> {
  const checkpoint = (await readCheckpoint(db))!;
  const at = checkpoint.blockTime.getTime();
  let moved = 0;
  for (const ms of EDGES_MS) {
    const from = new Date(bucketOf(at - ms) + BUCKET_MS).toISOString();
    const gap = [from, new Date(at - ms + BUCKET_MS).toISOString(), checkpoint.history!.bootstrapBlock];
    for (const [table, column] of [['swaps', 'occurred_at'], ['indexer_price_changes', 'observed_at'], ['price_points', 'observed_at']]) {
      const rows = await db.query(
        `UPDATE ${table} SET ${column} = GREATEST($1::timestamptz, ${column} - interval '60 seconds')
         WHERE ${column} > $1 AND ${column} <= $2 AND block_number <= $3 RETURNING 1`,
        gap,
      );
      moved += rows.length;
    }
    await db.query(`INSERT INTO indexer_inexact_buckets (bucket) VALUES ($1) ON CONFLICT DO NOTHING`, [from]);
  }
  const migration = readFileSync(new URL('../../src/db/migrations/021_edges_fixed_at.sql', import.meta.url), 'utf8');
  await db.query(migration.slice(migration.indexOf('UPDATE indexer_checkpoint')));
  assert.ok((await readCheckpoint(db))!.edgesFixedAt, 'the migration marks an index with a bootstrap');
  return moved;
}

const HOUR = 3_600_000;
const WINDOW_FIELDS: [number, string[]][] = [
  [HOUR, ['price_change_1h']], [6 * HOUR, ['price_change_6h']], [168 * HOUR, ['price_change_7d']],
  [24 * HOUR, ['sells', 'buys', 'swaps', 'volume24h', 'last24h_variation', 'swaps24h']],
];

/** The rows with the second of a price time dropped (bucketed) and the figures of windows not covered yet left out. */
async function figures(rows: Record<string, unknown>[], dbs: Database[], at: Date) {
  const hidden = new Set<string>();
  for (const [ms, fields] of WINDOW_FIELDS) if (!(await covered(dbs, at, ms))) for (const f of fields) hidden.add(f);
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !hidden.has(k)).map(([k, v]) => [k, k === 'price_updated_at' ? bucketKey(v) : v])));
}

test('following without blockTimestamp: rows at every moving window edge hold their exact times, figures equal the exact index\'s, restarts change nothing', async () => {
  const exact = await startRun(true, 'exact');
  const bucketed = await startRun(false, 'bucketed');
  const restarted = await startRun(false, 'bucketed');
  let interpolatedSeen = 0;
  const fixedAtEdges = new Set<string>();
  let compared = 0;
  let upgradedRows = 0;
  const smallSteps: { blocks: number; headers: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The bootstrap, then each round new blocks (about 5 minutes; every fourth round a few seconds,
    // so that the edges move inside a bucket; the last rounds 16 minutes, so that an edge crosses
    // several buckets in one step), one step each: a forward batch to the head and one history range.
    if (round > 0) chain.mine(round >= ROUNDS - 2 ? 400 : round % 4 === 3 ? SMALL_STEP : 130);
    // Once the 1 h edge is inside history, the restarted run's index is turned into one written under
    // the rule before migration 021: its next step catches up, and it stores the same rows again.
    if (round === UPGRADE_ROUND) upgradedRows = await asBeforeMigration021(restarted.db);
    restarted.indexer = restarted.restart();
    const small = round > 0 && round < ROUNDS - 2 && round % 4 === 3;
    for (const run of [exact, bucketed, restarted]) {
      const step = await run.indexer.syncOnce();
      // The edges' headers come a few per step, read ahead of them, not a bucket's worth as one crosses into it.
      if (run === bucketed && small) smallSteps.push({ blocks: SMALL_STEP, headers: step.batch?.edgeHeaders ?? 0 });
    }
    const checkpoint = (await readCheckpoint(bucketed.db))!;
    assert.equal((await readCheckpoint(exact.db))!.blockNumber, checkpoint.blockNumber, 'the runs move in step');
    const at = checkpoint.blockTime;

    // The rows an edge has passed since the bootstrap (by their true times), and every row stored up
    // to a bucket ahead of an edge: their blocks' own times (at the bootstrap block itself the edges
    // split their buckets exactly instead).
    const rows = await timedRows(bucketed.db);
    const bootstrapTime = checkpoint.bootstrapTime!;
    assert.ok(bootstrapTime, 'the bootstrap block\'s time is stored');
    const passed = rows.filter((r) => edgePassed(truthOf(r), bootstrapTime, at));
    for (const row of passed) assert.equal(row.at.getTime(), truthOf(row), `round ${round}: block ${row.block}, passed by an edge, holds its own time`);
    const ahead = rows.filter((r) => edgePassed(r.at.getTime(), bootstrapTime, at, BUCKET_MS));
    for (const row of ahead) assert.equal(row.at.getTime(), truthOf(row), `round ${round}: block ${row.block}, stored a bucket or less ahead of an edge, holds its own time`);
    for (const r of ahead) if (r.block <= checkpoint.history!.bootstrapBlock) fixedAtEdges.add(`${r.block}:${r.at.getTime()}`);
    // Every interpolated time is in its true bucket, and that bucket is listed; no listed bucket is one an edge passed.
    const inexact = await listed(bucketed.db);
    for (const b of inexact) assert.ok(!edgePassed(b, bootstrapTime, at), `round ${round}: listed bucket ${new Date(b).toISOString()}: no edge has reached its start`);
    for (const row of rows) {
      if (row.at.getTime() === truthOf(row)) continue;
      interpolatedSeen++;
      assert.equal(bucketOf(row.at.getTime()), bucketOf(truthOf(row)), `block ${row.block}: in its true bucket`);
      assert.ok(inexact.has(bucketOf(row.at.getTime())), `round ${round}: block ${row.block}'s interpolated time lies in a listed bucket`);
    }

    // The same figures as the index with exact times; the simulator's 24 h counts.
    const a = await snapshotDb(exact.db, { figuresOnly: true });
    const b = await snapshotDb(bucketed.db, { figuresOnly: true });
    const both = [exact.db, bucketed.db];
    // A price whose value began in a bucket an edge passed: its time to the second, as with exact times
    // (on this chain every token's price moves with WETH's, so its value begins after the bootstrap).
    for (const [i, token] of b.tokens.entries()) {
      const since = token.price_updated_at as Date | null;
      if (!since || !edgePassed(since.getTime(), bootstrapTime, at, BUCKET_MS)) continue;
      assert.equal(since.getTime(), (a.tokens[i]!.price_updated_at as Date).getTime(), `round ${round}: ${token.symbol}'s priceUpdatedAt`);
    }
    assert.deepEqual(await figures(b.tokens, both, at), await figures(a.tokens, both, at), `round ${round}: token figures (1 h change, 24 h counts, variation, volume)`);
    assert.deepEqual(await figures(b.pools, both, at), await figures(a.pools, both, at), `round ${round}: pools`);
    compared += (await covered(both, at, HOUR)) ? 1 : 0;
    // The counts are compared once the 24 h window is filled (partial before, and answered null).
    const truth = await checkAgainstTruth((sql) => bucketed.db.query(sql), computeTruth(chain), { swapCounts: await covered([bucketed.db], at, 24 * HOUR) });
    assert.deepEqual(truth.examples, [], `round ${round}: the simulator's truth`);

    // Restarted at every step: the same rows, interpolated seconds and listed buckets included.
    await assertSameSnapshot(restarted.db, bucketed.db, `round ${round}: a restart at every step stores the same rows`);
    assert.deepEqual(await listed(restarted.db), inexact, `round ${round}: and lists the same buckets`);
  }
  const checkpoint = (await readCheckpoint(bucketed.db))!;
  assert.ok(checkpoint.history?.complete, 'the history fill completed while following');
  assert.ok(interpolatedSeen > 1000, `interpolated times were stored (${interpolatedSeen} row checks)`);
  // A step of 5 blocks (about 12 s) reads the headers of the history blocks the 1 h edge's region
  // grew into, about as many as the blocks mined, never a 5-minute bucket's 130.
  assert.ok(smallSteps.length >= 3 && smallSteps.some((s) => s.headers > 0), `the small steps read ahead: ${JSON.stringify(smallSteps)}`);
  for (const step of smallSteps) assert.ok(step.headers <= 4 * step.blocks, `a small step read ${step.headers} edge headers`);
  assert.ok(upgradedRows > 20, `an index from before migration 021 had rows to catch up (${upgradedRows})`);
  assert.ok(compared > 8, `the 1 h figures were compared in ${compared} rounds`);
  assert.ok(fixedAtEdges.size > 300, `history rows in buckets the edges passed were checked (${fixedAtEdges.size})`);
  // The 1 h edge walked through history: the buckets it crossed are no longer listed.
  const crossed = (await listed(bucketed.db));
  for (let t = bucketOf(checkpoint.blockTime.getTime() - 3_600_000) - 6 * BUCKET_MS; t <= bucketOf(checkpoint.blockTime.getTime() - 3_600_000); t += BUCKET_MS) {
    assert.ok(!crossed.has(t), `bucket ${new Date(t).toISOString()} the 1 h edge crossed is not listed`);
  }
});
