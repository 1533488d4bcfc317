import { CANDLE_INTERVALS } from '../../config/candleIntervals.ts';
import type { Queryable } from '../Database.ts';
import type { CandlePriceInput, CandleSwapInput, StoredCandle } from './candleTypes.ts';
import { groupKey, mergeCandles } from './mergeCandles.ts';

const ALL_INTERVALS = CANDLE_INTERVALS.map((i) => i.seconds);

/** A candle row as the driver returns it: the bucket a timestamp, the block as text. */
type LatestRow = Omit<StoredCandle, 'bucket' | 'lastBlock'> & { bucket: Date; lastBlock: string };

/**
 * Rolls a batch's price changes and swaps (in block order, as the indexer writes them) into the
 * candles of every interval (or of `intervals`). A token with one price in the batch and no swap
 * (every quoted token at a USD feed round) is rolled up in SQL (rollupSinglePrices); the others
 * by one read of each touched (token, interval)'s newest row through the primary key, the
 * arithmetic in mergeCandles, one upsert. Returns the rows written.
 */
export async function rollupCandles(
  db: Queryable,
  prices: readonly CandlePriceInput[],
  swaps: readonly CandleSwapInput[],
  intervals: readonly number[] = ALL_INTERVALS,
): Promise<number> {
  prices = prices.map((p) => ({ ...p, token: p.token.toLowerCase() }));
  swaps = swaps.map((s) => ({ ...s, token: s.token.toLowerCase() }));
  const priced = new Map<string, number>();
  for (const p of prices) if (p.price !== null) priced.set(p.token, (priced.get(p.token) ?? 0) + 1);
  const swapped = new Set(swaps.map((s) => s.token));
  const single = (token: string) => priced.get(token) === 1 && !swapped.has(token);
  // The single prices' tokens are not among the others: their statements need not land first.
  const singles = rollupSinglePrices(db, prices.filter((p) => p.price !== null && single(p.token)), intervals);
  singles.catch(() => {}); // awaited below; a failure before that must not go unhandled
  prices = prices.filter((p) => !single(p.token));
  const tokens = new Set<string>();
  for (const p of prices) if (p.price !== null) tokens.add(p.token);
  for (const s of swaps) tokens.add(s.token);
  if (tokens.size === 0) return await singles;
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
  return (await singles) + rows.length;
}

/** Tokens per statement of rollupSinglePrices: a row per interval each, within CANDLE_ROWS_PER_STATEMENT. */
const SINGLE_PRICES_PER_STATEMENT = 2_000;

/**
 * mergeCandles' rule for a token whose batch holds one price and no swap, in one statement per
 * chunk: in the bucket of the newest stored row, the price extends high and low from the row's
 * open (or from the price when the row has none: swaps before the first price) and becomes the
 * close; in a later bucket a row opens at the newest stored close (or at the price) and spans it
 * to the price, with no volume. Prices are stored as mergeCandles writes them (no trailing zeros).
 */
async function rollupSinglePrices(db: Queryable, prices: readonly CandlePriceInput[], intervals: readonly number[]): Promise<number> {
  // Every chunk is sent before the first answer is awaited: the connection runs them back to back
  // while the caller's JavaScript goes on (writeBatch builds the token rows meanwhile).
  const sent: Promise<{ n: string }[]>[] = [];
  for (let i = 0; i < prices.length; i += SINGLE_PRICES_PER_STATEMENT) {
    const chunk = prices.slice(i, i + SINGLE_PRICES_PER_STATEMENT);
    sent.push(db.query<{ n: string }>(
      `WITH written AS (INSERT INTO candles AS c (token, interval_s, bucket, open, high, low, close, volume_usd, volume, swaps, last_block)
       SELECT k.token, i.s, b.bucket, o.open, GREATEST(o.open, k.price), LEAST(o.open, k.price), k.price, 0, 0, 0, k.block
       FROM unnest($1::text[], $2::numeric[], $3::timestamptz[], $4::bigint[]) AS k0(token, price0, at, block)
       CROSS JOIN LATERAL (SELECT k0.token, trim_scale(k0.price0) AS price, k0.at, k0.block) k
       CROSS JOIN unnest($5::int[]) AS i(s)
       CROSS JOIN LATERAL (SELECT to_timestamp(floor(extract(epoch FROM k.at) / i.s) * i.s) AS bucket) b
       LEFT JOIN LATERAL (SELECT l.close FROM candles l WHERE l.token = k.token AND l.interval_s = i.s ORDER BY l.bucket DESC LIMIT 1) l ON true
       CROSS JOIN LATERAL (SELECT COALESCE(l.close, k.price) AS open) o
       ON CONFLICT (token, interval_s, bucket) DO UPDATE SET
         open = COALESCE(c.open, EXCLUDED.close),
         high = GREATEST(c.high, COALESCE(c.open, EXCLUDED.close), EXCLUDED.close),
         low = LEAST(c.low, COALESCE(c.open, EXCLUDED.close), EXCLUDED.close),
         close = EXCLUDED.close, last_block = GREATEST(c.last_block, EXCLUDED.last_block)
       RETURNING 1)
       SELECT count(*)::text AS n FROM written`,
      [chunk.map((p) => p.token), chunk.map((p) => p.price), chunk.map((p) => p.observedAt.toISOString()), chunk.map((p) => p.blockNumber), intervals],
    ));
  }
  return (await Promise.all(sent)).reduce((sum, [row]) => sum + Number(row!.n), 0);
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
