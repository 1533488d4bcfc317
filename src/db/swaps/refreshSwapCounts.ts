import type { Queryable } from '../Database.ts';
import { NEXT_ROW_VERSION, bumpDataVersion } from '../bumpDataVersion.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Swaps older than this behind the window end can never count again (the window only moves on). */
const KEEP_MS = 2 * DAY_MS;

/**
 * Sets buys, sells and swaps of every token to its counts over the 24 hours ending at `windowEnd`
 * (chain time). Only tokens whose counts change are written, and their updatedAt becomes `windowEnd`.
 * Swaps two days behind the window are deleted, so the table stays small. Returns how many
 * tokens changed.
 */
export async function refreshSwapCounts(db: Queryable, windowEnd: Date): Promise<number> {
  await db.query(`DELETE FROM swaps WHERE occurred_at <= $1`, [new Date(windowEnd.getTime() - KEEP_MS).toISOString()]);
  const rows = await db.query<{ address: string }>(
    `WITH window_counts AS (
       SELECT token,
              count(*) FILTER (WHERE side = 'buy')::int AS buys,
              count(*) FILTER (WHERE side = 'sell')::int AS sells,
              count(*)::int AS swaps
       FROM swaps WHERE occurred_at > $1 AND occurred_at <= $2
       GROUP BY token
     ), target AS (
       SELECT t.address, coalesce(w.buys, 0) AS buys, coalesce(w.sells, 0) AS sells, coalesce(w.swaps, 0) AS swaps
       FROM tokens t LEFT JOIN window_counts w ON w.token = t.address
     )
     UPDATE tokens t SET buys = target.buys, sells = target.sells, swaps = target.swaps,
       updated_at = GREATEST(t.updated_at, $2), row_version = ${NEXT_ROW_VERSION}
     FROM target
     WHERE t.address = target.address AND (t.buys, t.sells, t.swaps) IS DISTINCT FROM (target.buys, target.sells, target.swaps)
     RETURNING t.address`,
    [new Date(windowEnd.getTime() - DAY_MS).toISOString(), windowEnd.toISOString()],
  );
  if (rows.length > 0) await bumpDataVersion(db);
  return rows.length;
}
