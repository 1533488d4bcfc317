import type { Queryable } from '../Database.ts';
import type { StoredCandle } from './candleTypes.ts';

/** A stored candle as the API reads it (numeric columns as exact text). */
export type CandleRow = Pick<StoredCandle, 'bucket' | 'open' | 'high' | 'low' | 'close' | 'volumeUsd' | 'volume' | 'swaps'>;

export type CandleRead = {
  checksumAddress: string;
  decimals: number;
  /** Candles before this bucket may have been pruned (docs/retention.md); null when none were. */
  keptFrom: number | null;
  /** The time of the chain's head as the candles hold it (loadHeadTime), ms; null before the indexer stored a block. */
  headTime: number | null;
  /** The last priced candle before `from` (the price carried into the range), if any, then the range's rows; by bucket. */
  rows: CandleRow[];
};

type Row = { checksumAddress: string; decimals: number; keptFrom: Date | null; headTime: Date | null; rows: string | null };

/**
 * The time of the chain's head as the candles hold it, ms: the checkpoint's block, or the block before
 * the first one whose records are still to be rolled up (pendingCandles.ts); null before the indexer
 * stored a block.
 */
export async function loadHeadTime(db: Queryable): Promise<number | null> {
  const rows = await db.query<{ headTime: Date }>(`SELECT COALESCE(candles_through_time, block_time) AS "headTime" FROM indexer_checkpoint WHERE id = 1`);
  return rows[0] ? new Date(rows[0].headTime).getTime() : null;
}

/**
 * One token's candles of one interval with buckets in [from, to], plus the last priced one before
 * `from`, with the token's address, decimals, the interval's retention horizon and the chain's
 * head (so the caller sees whether the range passes it): one statement through the primary key, its candles joined into one text (PGlite's cost is per row returned, as
 * for loadPriceChanges). Undefined when the token is not indexed.
 */
export async function loadCandles(db: Queryable, token: string, seconds: number, from: Date, to: Date, horizon: string): Promise<CandleRead | undefined> {
  const found = await db.query<Row>(
    `SELECT t.checksum_address AS "checksumAddress", t.decimals, h.kept_from AS "keptFrom",
       (SELECT COALESCE(candles_through_time, block_time) FROM indexer_checkpoint WHERE id = 1) AS "headTime",
       (SELECT string_agg(concat_ws(' ', (extract(epoch FROM c.bucket) * 1000)::bigint, coalesce(c.open::text, '-'), coalesce(c.high::text, '-'),
          coalesce(c.low::text, '-'), coalesce(c.close::text, '-'), c.volume_usd::text, c.volume::text, c.swaps), ',' ORDER BY c.bucket)
        FROM (
          (SELECT * FROM candles c WHERE c.token = t.address AND c.interval_s = $2 AND c.bucket < $3 AND c.close IS NOT NULL ORDER BY c.bucket DESC LIMIT 1)
          UNION ALL
          (SELECT * FROM candles c WHERE c.token = t.address AND c.interval_s = $2 AND c.bucket >= $3 AND c.bucket <= $4)
        ) c) AS rows
     FROM tokens t
     LEFT JOIN retention_horizons h ON h.name = $5
     WHERE t.address = $1`,
    [token.toLowerCase(), seconds, from.toISOString(), to.toISOString(), horizon],
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
