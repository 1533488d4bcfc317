// npm run bench:feed-round -- [--from bench_follow] [--runs 3] [--vacuum | --vacuum-full] [--move 1.005] [--profile linea-day] [--seed 1] [--cpu-profile FILE]
// Times the step that follows a USD feed round at the head of a followed catalogue: every token
// quoted against the wrapped native token is repriced at once (docs/indexer.md, "Following").
// Each run copies the database a follow bench left (`npm run bench:follow`, PostgreSQL), loads the
// indexer's state from it as a restart does, replays one block whose only event is a feed round
// moving the USD price by --move, and writes it with the production writeBatch; the step's parts
// are reported as the indexer logs them, the time to the batch's commit (what the lag waits for)
// apart from the candles it leaves to roll up right after (writeBatch). Block headers come from the stored rows (the chain the
// database was indexed from is gone): only the window edges' few rows ask for one.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { BlockHeader, ChainClient } from '../../src/chain/index.ts';
import { loadIndexerConfig } from '../../src/config/indexerConfig.ts';
import { createDatabase } from '../../src/db/createDatabase.ts';
import { rollupPendingCandles } from '../../src/db/index.ts';
import type { Queryable } from '../../src/db/Database.ts';
import { createIndexerContext } from '../../src/indexer/createIndexerContext.ts';
import { createLaps } from '../../src/indexer/createLaps.ts';
import { replayBlocks } from '../../src/indexer/replayBlocks.ts';
import { loadIndexerState } from '../../src/indexer/state/IndexerState.ts';
import { writeBatch } from '../../src/indexer/writeBatch.ts';
import type { WriterLock } from '../../src/db/indexer/index.ts';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432' },
    from: { type: 'string', default: 'bench_follow' },
    runs: { type: 'string', default: '3' },
    move: { type: 'string', default: '1.005' },
    profile: { type: 'string', default: 'linea-day' },
    seed: { type: 'string', default: '1' },
    // writes a CPU profile of the timed step to this file (open it in Chrome's DevTools)
    'cpu-profile': { type: 'string' },
    // VACUUM the copy first (as a database kept vacuumed would be; this machine runs without autovacuum),
    // or VACUUM FULL (compacted, indexes rebuilt), then CHECKPOINT (so that the step writes whole pages as live)
    vacuum: { type: 'boolean', default: false },
    'vacuum-full': { type: 'boolean', default: false },
  },
});
const root = resolve(import.meta.dirname, '..', '..');
const copy = `${values.from}_feed_round`;
const presetFile = join(root, 'node_modules', '.cache', 'linea-sim', `${values.profile}-${values.seed}-live`, 'preset.json');

async function copyDatabase(): Promise<string> {
  const admin = new pg.Client(`${values.server}/postgres`);
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${copy} TEMPLATE ${values.from}`);
  await admin.end();
  return `${values.server}/${copy}`;
}

const results: Record<string, number>[] = [];

/** CPU time (user + system, ms) of this database's server processes so far, from /proc (the server runs on this machine). */
async function backendCpuMs(db: Queryable): Promise<number> {
  const rows = await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {
      // gone, or another machine's server
    }
  }
  return ticks * 10; // USER_HZ = 100
}
for (let run = 0; run < Number(values.runs); run++) {
  const url = await copyDatabase();
  const config = loadIndexerConfig({ ...process.env, DATABASE_URL: url, INDEXER_NETWORK_FILE: presetFile, RETENTION_PRICE_CHANGES: '7d' });
  const db = await createDatabase({ databaseUrl: url });
  if (values.vacuum || values['vacuum-full']) {
    const started = performance.now();
    await db.query(values['vacuum-full'] ? 'VACUUM FULL' : 'VACUUM');
    await db.query('CHECKPOINT');
    console.log(`vacuumed${values['vacuum-full'] ? ' (full)' : ''} in ${Math.round(performance.now() - started)} ms`);
  }
  const [checkpoint] = await db.query<{ block: string; time: Date; hash: string }>(
    `SELECT block_number::text AS block, block_time AS time, block_hash AS hash FROM indexer_checkpoint`);
  const head = Number(checkpoint!.block);
  const headTime = new Date(checkpoint!.time).getTime() / 1000;
  // As a following indexer meets it: a quiet block (figures then go on incrementally), a feed round
  // (caches of pool figures, checksums and the like warm, as after hours of following), another
  // quiet block, and the feed round timed (moving the price back).
  const headerOf = (n: number): BlockHeader => ({ number: n, hash: `0x${n.toString(16).padStart(64, 'f')}`, parentHash: n === head + 1 ? checkpoint!.hash : `0x${(n - 1).toString(16).padStart(64, 'f')}`, timestamp: headTime + 2 * (n - head) });
  // Headers of stored blocks: their stored times (the rows' own times up to the 5-minute bucket).
  const chain = {
    getChainId: async () => config.chainId!,
    async getBlockHeaders(numbers: readonly number[]) {
      const rows = await db.query<{ n: string; t: Date }>(
        `SELECT block_number::text AS n, max(occurred_at) AS t FROM swaps WHERE block_number = ANY($1::bigint[]) GROUP BY block_number
         UNION SELECT block_number::text, max(observed_at) FROM indexer_price_changes WHERE block_number = ANY($1::bigint[]) GROUP BY block_number`,
        [numbers]);
      const times = new Map(rows.map((r) => [Number(r.n), new Date(r.t).getTime() / 1000]));
      return numbers.map((n) => (n > head ? headerOf(n) : { number: n, hash: `0x${n.toString(16).padStart(64, '0')}`, parentHash: '0x', timestamp: Math.floor(times.get(n) ?? headTime) }));
    },
  } as unknown as ChainClient;
  const lock = { fence: async () => {} } as unknown as WriterLock;
  const logger = { info() {}, warn() {}, error() {}, debug() {} } as never;
  const ctx = await createIndexerContext({ db, chain, config, logger, lock, circulating: { rules: { exclusions: [] } as never, failures: { count: 0 } } });
  const state = await loadIndexerState(db);
  const [feedRow] = await db.query<{ decimals: number; answer: string }>(
    `SELECT decimals, answer::text AS answer FROM indexer_feed_answers ORDER BY block_number DESC, log_index DESC LIMIT 1`);
  ctx.usdFeed!.decimals = feedRow!.decimals;
  const [num, den] = [BigInt(Math.round(Number(values.move) * 1e6)), 1_000_000n];
  const answers = [(BigInt(feedRow!.answer) * num) / den, BigInt(feedRow!.answer)];
  const empty = () => ({ logs: [], isFeedLog: () => false, tokenFirstSeen: new Map(), readStates: new Map() });
  const timeOf = (n: number) => () => new Date(headerOf(n).timestamp * 1000);
  const step = async (n: number, answer: bigint | null, lap?: ReturnType<typeof createLaps>) => {
    const feedRounds = new Map(answer === null ? [] : [[n, { answer, updatedAt: headerOf(n).timestamp }]]);
    const replay = await replayBlocks(ctx, state, { ...empty(), feedRounds, timeOf: timeOf(n) });
    lap?.('replay');
    const written = await writeBatch(ctx, state, { from: n, to: n, parentBlock: n - 1, headers: new Map([[n, headerOf(n)]]), newPools: [], changedTokens: Promise.resolve([]), replay, atHead: true }, lap);
    const committed = performance.now();
    // As the indexer's step does: candles the batch left pending rolled up right after its commit.
    if (written.candlesPending) await db.transaction((tx) => rollupPendingCandles(tx, n));
    return { replay, written, committed, candlesAfterMs: written.candlesPending ? Math.round(performance.now() - committed) : 0 };
  };
  await step(head + 1, null);
  await step(head + 2, answers[0]!);
  await step(head + 3, null);

  const ms: Record<string, number> = {};
  const lap = createLaps(ms);
  const profiler = values['cpu-profile'] ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const lsn = async () => (await db.query<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`))[0]!.lsn;
  const walBefore = await lsn();
  const cpuBefore = await backendCpuMs(db);
  const started = performance.now();
  const { replay, written, committed, candlesAfterMs } = await step(head + 4, answers[1]!, lap);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(values['cpu-profile']!, JSON.stringify(profile));
    profiler.disconnect();
  }
  // To the batch's commit (what the lag waits for), and the candles rolled up after it.
  const total = Math.round(committed - started);
  const withCandles = Math.round(performance.now() - started);
  const backendCpu = (await backendCpuMs(db)) - cpuBefore;
  const [wal] = await db.query<{ mb: string }>(`SELECT round(pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn) / 1048576.0, 1)::text AS mb`, [await lsn(), walBefore]);
  results.push({ ...ms, total, candlesAfter: candlesAfterMs, withCandles, backendCpu });
  console.log(`run ${run + 1}: ${total} ms to the commit${written.candlesPending ? `, then the candles ${candlesAfterMs} ms (${withCandles} ms in all)` : ''}, ${replay.priceChanges.length} price changes, ${written.tokensWritten} token rows, ${wal!.mb} MB of WAL, ${backendCpu} ms of PostgreSQL backend CPU;`,
    Object.entries(ms).map(([k, v]) => `${k} ${v}`).join(', '));
  await db.close();
}
const mean = (k: string) => Math.round(results.reduce((s, r) => s + (r[k] ?? 0), 0) / results.length);
console.log('mean:', Object.keys(results[0]!).map((k) => `${k} ${mean(k)}`).join(', '));
const admin = new pg.Client(`${values.server}/postgres`);
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
await admin.end();
