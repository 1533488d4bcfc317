import { CANDLE_INTERVALS } from '../../config/candleIntervals.ts';
import type { Queryable } from '../Database.ts';
import type { CandlePriceInput, CandleSwapInput, StoredCandle } from './candleTypes.ts';
import { groupKey, mergeCandles } from './mergeCandles.ts';

const ALL_INTERVALS = CANDLE_INTERVALS.map((i) => i.seconds);

/** A candle row as the driver returns it: the bucket a timestamp, the block as text. */
type LatestRow = Omit<StoredCandle, 'bucket' | 'lastBlock'> & { bucket: Date; lastBlock: string };

/**
 * Rolls a batch's price changes and swaps (in block order, as the indexer writes them) into the
 * candles of every interval (or of `intervals`): one read of each touched (token, interval)'s
 * newest row through the primary key, the arithmetic in mergeCandles, one upsert. Returns the
 * rows written.
 */
export async function rollupCandles(
  db: Queryable,
  prices: readonly CandlePriceInput[],
  swaps: readonly CandleSwapInput[],
  intervals: readonly number[] = ALL_INTERVALS,
): Promise<number> {
  prices = prices.map((p) => ({ ...p, token: p.token.toLowerCase() }));
  swaps = swaps.map((s) => ({ ...s, token: s.token.toLowerCase() }));
  const tokens = new Set<string>();
  for (const p of prices) if (p.price !== null) tokens.add(p.token);
  for (const s of swaps) tokens.add(s.token);
  if (tokens.size === 0) return 0;
  const keys = [...tokens].flatMap((token) => intervals.map((seconds) => [token, seconds] as const));
  const stored = await db.query<LatestRow>(
    `SELECT k.token, k.interval_s AS "intervalSeconds", c.bucket, c.open::text AS open, c.high::text AS high, c.low::text AS low,
            c.close::text AS close, c.volume_usd::text AS "volumeUsd", c.volume::text AS volume, c.swaps, c.last_block::text AS "lastBlock"
     FROM unnest($1::text[], $2::int[]) AS k(token, interval_s)
     CROSS JOIN LATERAL (SELECT * FROM candles c WHERE c.token = k.token AND c.interval_s = k.interval_s ORDER BY c.bucket DESC LIMIT 1) c`,
    [keys.map((k) => k[0]), keys.map((k) => k[1])],
  );
  const latest = new Map<string, StoredCandle>(
    stored.map((r) => [
      groupKey(r.token, r.intervalSeconds),
      { ...r, intervalSeconds: Number(r.intervalSeconds), bucket: new Date(r.bucket).getTime(), lastBlock: Number(r.lastBlock) },
    ]),
  );
  const rows = mergeCandles(prices, swaps, intervals, latest);
  await writeCandleRows(db, rows);
  return rows.length;
}

/**
 * Rows per statement when candle rows are written: a history range of a dense chain writes over
 * 100,000 of them, and one statement of them all can outlast the statement timeout.
 */
export const CANDLE_ROWS_PER_STATEMENT = 10_000;

/** Inserts or replaces candle rows, `rowsPerStatement` at a time. */
export async function writeCandleRows(db: Queryable, all: readonly StoredCandle[], rowsPerStatement = CANDLE_ROWS_PER_STATEMENT): Promise<void> {
  for (let i = 0; i < all.length; i += rowsPerStatement) {
    const rows = all.slice(i, i + rowsPerStatement);
    await db.query(
      `INSERT INTO candles AS c (token, interval_s, bucket, open, high, low, close, volume_usd, volume, swaps, last_block)
       SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[],
         $8::numeric[], $9::numeric[], $10::int[], $11::bigint[])
       ON CONFLICT (token, interval_s, bucket) DO UPDATE SET
         open = EXCLUDED.open, high = EXCLUDED.high, low = EXCLUDED.low, close = EXCLUDED.close, volume_usd = EXCLUDED.volume_usd,
         volume = EXCLUDED.volume, swaps = EXCLUDED.swaps, last_block = EXCLUDED.last_block`,
      [
        rows.map((r) => r.token), rows.map((r) => r.intervalSeconds), rows.map((r) => new Date(r.bucket).toISOString()),
        rows.map((r) => r.open), rows.map((r) => r.high), rows.map((r) => r.low), rows.map((r) => r.close),
        rows.map((r) => r.volumeUsd), rows.map((r) => r.volume), rows.map((r) => r.swaps), rows.map((r) => r.lastBlock),
      ],
    );
  }
}
