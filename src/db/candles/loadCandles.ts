import type { Queryable } from '../Database.ts';

/** A stored candle as the API reads it (numeric columns as exact text). */
export type CandleRow = {
  /** ms since the epoch */
  bucket: number;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string | null;
  volumeUsd: string;
  /** base units */
  volume: string;
  swaps: number;
};

export type CandleRead = {
  checksumAddress: string;
  decimals: number;
  /** Candles before this bucket may have been pruned (docs/retention.md); null when none were. */
  keptFrom: number | null;
  /** The last priced candle before `from` (the price carried into the range), if any, then the range's rows; by bucket. */
  rows: CandleRow[];
};

type Row = {
  checksumAddress: string;
  decimals: number;
  keptFrom: Date | null;
  bucket: Date | null;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string | null;
  volumeUsd: string | null;
  volume: string | null;
  swaps: number | null;
};

/**
 * One token's candles of one interval with buckets in [from, to], plus the last priced one before
 * `from`, with the token's address, decimals and the interval's retention horizon: one statement,
 * through the primary key. Undefined when the token is not indexed.
 */
export async function loadCandles(db: Queryable, token: string, seconds: number, from: Date, to: Date, horizon: string): Promise<CandleRead | undefined> {
  const rows = await db.query<Row>(
    `SELECT t.checksum_address AS "checksumAddress", t.decimals, h.kept_from AS "keptFrom", c.bucket, c.open::text AS open,
            c.high::text AS high, c.low::text AS low, c.close::text AS close, c.volume_usd::text AS "volumeUsd", c.volume::text AS volume, c.swaps
     FROM tokens t
     LEFT JOIN retention_horizons h ON h.name = $5
     LEFT JOIN LATERAL (
       (SELECT * FROM candles c WHERE c.token = t.address AND c.interval_s = $2 AND c.bucket < $3 AND c.close IS NOT NULL ORDER BY c.bucket DESC LIMIT 1)
       UNION ALL
       (SELECT * FROM candles c WHERE c.token = t.address AND c.interval_s = $2 AND c.bucket >= $3 AND c.bucket <= $4 ORDER BY c.bucket)
     ) c ON true
     WHERE t.address = $1
     ORDER BY c.bucket`,
    [token.toLowerCase(), seconds, from.toISOString(), to.toISOString(), horizon],
  );
  const first = rows[0];
  if (!first) return undefined;
  return {
    checksumAddress: first.checksumAddress,
    decimals: Number(first.decimals),
    keptFrom: first.keptFrom === null ? null : new Date(first.keptFrom).getTime(),
    rows: first.bucket === null
      ? []
      : rows.map((r) => ({
          bucket: new Date(r.bucket!).getTime(), open: r.open, high: r.high, low: r.low, close: r.close,
          volumeUsd: r.volumeUsd!, volume: r.volume!, swaps: Number(r.swaps),
        })),
  };
}
