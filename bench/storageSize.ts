// Database size per million swaps: a seeded trading history (bench/lib/tradeHistory.ts: 2-second
// blocks, heavy-tailed pools, two swap rows per swap as the indexer stores them) written through
// the indexer's storage calls (price changes, swaps, candle roll-up) on PGlite and PostgreSQL;
// then each table's rows and bytes (pg_total_relation_size: heap, indexes, TOAST; after VACUUM
// FULL, so no dead space counts) scaled to a million swaps, and what the default retention keeps
// after a year at the history's own rate (1.5 swaps per 2-second block). See docs/retention.md.
//   tsx bench/storageSize.ts [--swaps N] [--tokens N]
// Env: BENCH_DATABASE_URL=postgres://… runs on PostgreSQL too (own schema, dropped after).
import { retentionDefaults } from '../src/config/retentionConfig.ts';
import { CANDLE_INTERVALS } from '../src/config/candleIntervals.ts';
import { createDatabase, upsertTokens, type Database, type TokenWrite } from '../src/db/index.ts';
import { openScratchPostgres } from '../test/helpers/testDatabases.ts';
import { buildTradeHistory, writeTradeHistory } from './lib/tradeHistory.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SWAPS = arg('--swaps', 100_000);
const TOKENS = arg('--tokens', 500);
const BLOCK_MS = 2000;
const SWAPS_PER_BLOCK = 1.5;
const DAY_MS = 86_400_000;

const hex = (n: number) => n.toString(16).padStart(40, '0');
const tokens: TokenWrite[] = Array.from({ length: TOKENS }, (_, i) => ({
  address: `0x${hex(0xa0000 + i)}`, name: `Token ${i}`, symbol: `T${i}`, decimals: [18, 6, 8][i % 3]!, totalSupply: 10n ** 27n,
  currentPrice: null, firstSeenAt: new Date(0), at: new Date(0),
}));
const history = buildTradeHistory({
  seed: 59144, tokens: tokens.map((t, i) => ({ address: t.address, decimals: t.decimals, price: 10 ** ((i % 9) - 4) * 3.7 })),
  pools: TOKENS * 2, poolSkew: 3, blocks: Math.round(SWAPS / SWAPS_PER_BLOCK), firstBlock: 1, startMs: Date.parse('2026-01-01T00:00:00Z'),
  blockMs: BLOCK_MS, swapsPerBlock: SWAPS_PER_BLOCK,
});
const swapEvents = new Set(history.swaps.map((s) => `${s.blockNumber}:${s.logIndex}`)).size;
const spanDays = (history.blockTime(history.lastBlock).getTime() - history.blockTime(1).getTime()) / DAY_MS;
/** Swaps a day in this history. */
const RATE = Math.round(swapEvents / spanDays);

type TableSize = { table: string; rows: number; bytes: number };

async function measure(db: Database): Promise<{ sizes: TableSize[]; writeMs: number; candleRows: Record<string, number> }> {
  await upsertTokens(db, tokens);
  const started = performance.now();
  await writeTradeHistory(db, history, 500);
  const writeMs = Math.round(performance.now() - started);
  const tables = ['swaps', 'indexer_price_changes', 'candles'];
  for (const table of tables) {
    await db.query(`VACUUM FULL ${table}`); // one statement each: VACUUM runs outside a transaction
    await db.query(`ANALYZE ${table}`);
  }
  const sizes: TableSize[] = [];
  for (const table of tables) {
    const [row] = await db.query<{ rows: string; bytes: string }>(`SELECT (SELECT count(*) FROM ${table})::text AS rows, pg_total_relation_size('${table}')::text AS bytes`);
    sizes.push({ table, rows: Number(row!.rows), bytes: Number(row!.bytes) });
  }
  const perInterval = await db.query<{ interval: number; n: string }>(`SELECT interval_s AS interval, count(*)::text AS n FROM candles GROUP BY interval_s`);
  const candleRows = Object.fromEntries(CANDLE_INTERVALS.map((i) => [i.name, Number(perInterval.find((r) => Number(r.interval) === i.seconds)?.n ?? 0)]));
  return { sizes, writeMs, candleRows };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const perMillion = (n: number) => (n * 1_000_000) / swapEvents;

function report(kind: string, r: Awaited<ReturnType<typeof measure>>): string {
  const out: string[] = [];
  out.push(`### ${kind}`, '');
  out.push(`${swapEvents} swaps (${history.swaps.length} swap rows) over ${spanDays.toFixed(2)} days of ${BLOCK_MS / 1000}-second blocks, ${TOKENS} tokens, written in ${(r.writeMs / 1000).toFixed(1)} s.`, '');
  out.push('| table | rows | bytes per row | MB as written | rows per million swaps | MB per million swaps |', '| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const s of r.sizes) {
    out.push(`| ${s.table} | ${s.rows} | ${(s.bytes / Math.max(1, s.rows)).toFixed(0)} | ${mb(s.bytes)} | ${perMillion(s.rows).toFixed(0)} | ${mb(perMillion(s.bytes))} |`);
  }
  const total = r.sizes.reduce((n, s) => n + s.bytes, 0);
  out.push(`| **all three** | | | ${mb(total)} | | **${mb(perMillion(total))}** |`, '');
  out.push(`Candle rows by interval: ${Object.entries(r.candleRows).map(([k, v]) => `${k} ${v}`).join(', ')}.`, '');
  // What the default retention keeps after a year at this history's rate: each table's bytes per
  // day of history times the days it keeps.
  const perDay = (table: string) => r.sizes.find((s) => s.table === table)!.bytes / spanDays;
  const keep = (ms: number | null) => (ms === null ? 365 : Math.min(365, ms / DAY_MS));
  const swapsKept = perDay('swaps') * keep(retentionDefaults.swaps);
  const changesKept = perDay('indexer_price_changes') * keep(retentionDefaults.priceChanges);
  const candles = r.sizes.find((s) => s.table === 'candles')!;
  let candlesKept = 0;
  for (const i of CANDLE_INTERVALS) {
    candlesKept += (r.candleRows[i.name]! / spanDays) * keep(retentionDefaults.candles[i.name]) * (candles.bytes / candles.rows);
  }
  out.push(`At ${RATE} swaps a day, after a year, the default retention keeps about: swaps ${mb(swapsKept)} MB (2 days), price changes ${mb(changesKept)} MB (90 days), candles ${mb(candlesKept)} MB (5m 30 d, 15m 90 d, 1h 365 d, 4h and 1d the whole year): ${mb(swapsKept + changesKept + candlesKept)} MB in all.`, '');
  return out.join('\n');
}

const kinds: ('pglite' | 'postgres')[] = process.env.BENCH_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
for (const kind of kinds) {
  const db = kind === 'pglite' ? await createDatabase({ pgliteDir: 'memory://' }) : await openScratchPostgres(process.env.BENCH_DATABASE_URL!, 'bench');
  try {
    process.stderr.write(`${kind}: writing ${swapEvents} swaps\n`);
    console.log(report(kind, await measure(db)));
  } finally {
    await db.close();
  }
}
