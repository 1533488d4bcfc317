import type { Queryable } from '../Database.ts';
import { NEXT_ROW_VERSION, bumpDataVersion } from '../bumpDataVersion.ts';
import { touchTokensPricedBy } from '../pools/upsertPools.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Sets buys, sells, swaps and USD volume of every token to its figures over the 24 hours ending at
 * `windowEnd` (chain time), and the swaps and USD volume of every pool (a swap counts the larger of
 * its sides' values). Only rows whose figures change are written; a token's updatedAt becomes
 * `windowEnd`. Old swaps are pruned apart (pruneSwaps, RETENTION_SWAPS). Returns how many tokens
 * and pools changed; `swapsByToken`, when given, receives each changed token's new swap count.
 */
export async function refreshSwapCounts(db: Queryable, windowEnd: Date, swapsByToken?: Map<string, number>): Promise<number> {
  const rows = await db.query<{ address: string; swaps: number }>(
    `WITH window_counts AS (
       SELECT token,
              count(*) FILTER (WHERE side = 'buy')::int AS buys,
              count(*) FILTER (WHERE side = 'sell')::int AS sells,
              count(*)::int AS swaps,
              coalesce(sum(value_usd), 0) AS volume
       FROM swaps WHERE occurred_at > $1 AND occurred_at <= $2
       GROUP BY token
     ), target AS (
       SELECT t.address, coalesce(w.buys, 0) AS buys, coalesce(w.sells, 0) AS sells, coalesce(w.swaps, 0) AS swaps,
              coalesce(w.volume, 0) AS volume
       FROM tokens t LEFT JOIN window_counts w ON w.token = t.address
     )
     UPDATE tokens t SET buys = target.buys, sells = target.sells, swaps = target.swaps, volume24h = target.volume,
       updated_at = GREATEST(t.updated_at, $2), row_version = ${NEXT_ROW_VERSION}
     FROM target
     WHERE t.address = target.address
       AND (t.buys, t.sells, t.swaps, t.volume24h) IS DISTINCT FROM (target.buys, target.sells, target.swaps, target.volume)
     RETURNING t.address, t.swaps`,
    [new Date(windowEnd.getTime() - DAY_MS).toISOString(), windowEnd.toISOString()],
  );
  if (swapsByToken) for (const row of rows) swapsByToken.set(row.address, Number(row.swaps));
  const pools = await db.query<{ address: string }>(
    `WITH per_swap AS (
       SELECT pool, max(value_usd) AS value FROM swaps WHERE occurred_at > $1 AND occurred_at <= $2
       GROUP BY pool, block_number, log_index
     ), window_figures AS (
       SELECT pool, count(*)::int AS swaps, coalesce(sum(value), 0) AS volume FROM per_swap GROUP BY pool
     ), target AS (
       SELECT p.address, coalesce(w.swaps, 0) AS swaps, coalesce(w.volume, 0) AS volume
       FROM pools p LEFT JOIN window_figures w ON w.pool = p.address
     )
     UPDATE pools p SET swaps24h = target.swaps, volume24h = target.volume, row_version = ${NEXT_ROW_VERSION}
     FROM target
     WHERE p.address = target.address AND (p.swaps24h, p.volume24h) IS DISTINCT FROM (target.swaps, target.volume)
     RETURNING p.address`,
    [new Date(windowEnd.getTime() - DAY_MS).toISOString(), windowEnd.toISOString()],
  );
  await touchTokensPricedBy(db, pools.map((p) => p.address));
  if (rows.length > 0 || pools.length > 0) await bumpDataVersion(db);
  return rows.length + pools.length;
}
