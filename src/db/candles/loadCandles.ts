import type { Queryable } from '../Database.ts';
import type { StoredCandle } from './candleTypes.ts';

/** A stored candle as the API reads it (numeric columns as exact text). */
export type CandleRow = Pick<StoredCandle, 'bucket' | 'open' | 'high' | 'low' | 'close' | 'volumeUsd' | 'volume' | 'swaps'>;

export type CandleRead = {
  checksumAddress: string;
  decimals: number;
  /** Candles before this bucket may have been pruned (docs/retention.md); null when none were. */
  keptFrom: number | null;
  /** The time of the chain's head as indexed (the checkpoint's block), ms; null before the indexer stored a block. */
  headTime: number | null;
  /** The last priced candle before the range (the price carried into it), if any, then the range's rows; by bucket. */
  rows: CandleRow[];
};

/**
 * The range to read, resolved in the statement itself against the chain's head, so that the
 * head and the candles come from one snapshot: the last bucket is the earlier of `to` and the
 * bucket that contains the head's time (`now` when no block is indexed yet); the first is `from`,
 * or `span` seconds before the last.
 */
export type CandleBounds = {
  /** Start of the bucket that contains the `to` asked for; null when none was. */
  to: Date | null;
  /** Start of the bucket that contains `from`; null when none was. */
  from: Date | null;
  /** Start of the wall clock's bucket: the end when no block is indexed yet. */
  now: Date;
  /** Seconds from the first bucket to the last when `from` is not given. */
  spanSeconds: number;
  /** The widest range read, in seconds from the first bucket to the last: wider ranges read no rows (the caller refuses them). */
  maxSpanSeconds: number;
};

type Row = { checksumAddress: string; decimals: number; keptFrom: Date | null; headTime: Date | null; rows: string | null };

/**
 * One token's candles of one interval over a range that ends at the chain's head (CandleBounds),
 * plus the last priced one before it, with the token's address, decimals, the interval's retention
 * horizon and the head's time: one statement through the primary key, its candles joined into
 * one text (PGlite's cost is per row returned, as for loadPriceChanges). Undefined when the token
 * is not indexed.
 */
export async function loadCandles(db: Queryable, token: string, seconds: number, bounds: CandleBounds, horizon: string): Promise<CandleRead | undefined> {
  const found = await db.query<Row>(
    `WITH head AS (SELECT block_time FROM indexer_checkpoint WHERE id = 1),
     last AS (
       SELECT least(coalesce($4::timestamptz, 'infinity'),
                    coalesce((SELECT to_timestamp(floor(extract(epoch FROM block_time) / $2) * $2) FROM head), $5::timestamptz)) AS hi
     ),
     range AS (SELECT hi, coalesce($3::timestamptz, hi - make_interval(secs => $6)) AS lo FROM last)
     SELECT t.checksum_address AS "checksumAddress", t.decimals, h.kept_from AS "keptFrom", (SELECT block_time FROM head) AS "headTime",
       (SELECT string_agg(concat_ws(' ', (extract(epoch FROM c.bucket) * 1000)::bigint, coalesce(c.open::text, '-'), coalesce(c.high::text, '-'),
          coalesce(c.low::text, '-'), coalesce(c.close::text, '-'), c.volume_usd::text, c.volume::text, c.swaps), ',' ORDER BY c.bucket)
        FROM (
          (SELECT c.* FROM candles c, range r WHERE c.token = t.address AND c.interval_s = $2 AND c.bucket < r.lo AND c.close IS NOT NULL
           ORDER BY c.bucket DESC LIMIT 1)
          UNION ALL
          (SELECT c.* FROM candles c, range r WHERE c.token = t.address AND c.interval_s = $2 AND c.bucket >= r.lo AND c.bucket <= r.hi
             AND r.lo >= r.hi - make_interval(secs => $7))
        ) c) AS rows
     FROM tokens t
     LEFT JOIN retention_horizons h ON h.name = $8
     WHERE t.address = $1`,
    [
      token.toLowerCase(), seconds, bounds.from?.toISOString() ?? null, bounds.to?.toISOString() ?? null, bounds.now.toISOString(),
      bounds.spanSeconds, bounds.maxSpanSeconds, horizon,
    ],
  );
  const first = found[0];
  if (!first) return undefined;
  const price = (text: string) => (text === '-' ? null : text);
  return {
    checksumAddress: first.checksumAddress,
    decimals: Number(first.decimals),
    keptFrom: first.keptFrom === null ? null : new Date(first.keptFrom).getTime(),
    headTime: first.headTime === null ? null : new Date(first.headTime).getTime(),
    rows: first.rows === null
      ? []
      : first.rows.split(',').map((row) => {
          const [bucket, open, high, low, close, volumeUsd, volume, swaps] = row.split(' ') as [string, string, string, string, string, string, string, string];
          return { bucket: Number(bucket), open: price(open), high: price(high), low: price(low), close: price(close), volumeUsd, volume, swaps: Number(swaps) };
        }),
  };
}
