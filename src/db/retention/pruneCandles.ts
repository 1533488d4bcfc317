import type { Queryable } from '../Database.ts';
import { advanceHorizon, readHorizon, type PruneOptions } from './horizons.ts';

/** The retention horizon row of one candle interval. */
export const candlesHorizon = (name: string) => `candles_${name}`;

/**
 * Prunes one interval's candles that start before `cutoff` (an interval start), in bucket ranges
 * of about `batchRows` rows, oldest first, keeping each token's latest candle up to the range's
 * end (the close a later range carries forward). The horizon is the last bucket pruned: a range
 * of candles from it on answers as before pruning. The (interval, bucket) index finds each range;
 * the primary key finds each token's older candles. Returns how many rows were deleted.
 */
export async function pruneCandles(db: Queryable, interval: { name: string; seconds: number }, cutoff: Date, options: PruneOptions): Promise<number> {
  const horizon = candlesHorizon(interval.name);
  let after = (await readHorizon(db, horizon))?.keptFrom.toISOString() ?? '-infinity';
  let deleted = 0;
  for (let pass = 0; pass < options.maxPasses; pass++) {
    const [next] = await db.query<{ bucket: Date }>(
      `SELECT bucket FROM candles WHERE interval_s = $1 AND bucket > $2 ORDER BY bucket OFFSET $3 LIMIT 1`,
      [interval.seconds, after, options.batchRows - 1],
    );
    let end: Date | undefined = next && new Date(next.bucket);
    let last = false;
    if (!end || end >= cutoff) {
      const [row] = await db.query<{ bucket: Date }>(
        `SELECT bucket FROM candles WHERE interval_s = $1 AND bucket > $2 AND bucket < $3 ORDER BY bucket DESC LIMIT 1`,
        [interval.seconds, after, cutoff.toISOString()],
      );
      end = row && new Date(row.bucket);
      last = true;
    }
    if (!end) break;
    const rows = await db.query<{ n: number }>(
      // As for price changes: each token's candles inside this range but its latest (the interval's
      // bucket index), and its one candle up to the last range pruned (the primary key, LIMIT 1);
      // deleted by row address (a TID scan).
      `WITH chunk AS (
         SELECT token, max(bucket) AS last FROM candles WHERE interval_s = $1 AND bucket > $2 AND bucket <= $3 GROUP BY token
       ), doomed AS (
         SELECT o.ctid FROM candles o JOIN chunk ON o.token = chunk.token
         WHERE o.interval_s = $1 AND o.bucket > $2 AND o.bucket <= $3 AND o.bucket < chunk.last
         UNION ALL
         SELECT p.ctid FROM chunk CROSS JOIN LATERAL
           (SELECT ctid FROM candles p WHERE p.token = chunk.token AND p.interval_s = $1 AND p.bucket <= $2 ORDER BY p.bucket DESC LIMIT 1) p
       ), gone AS (
         DELETE FROM candles WHERE ctid = ANY (ARRAY(SELECT ctid FROM doomed)) RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [interval.seconds, after, end.toISOString()],
    );
    deleted += Number(rows[0]?.n ?? 0);
    await advanceHorizon(db, horizon, end);
    after = end.toISOString();
    if (last) break;
  }
  return deleted;
}
