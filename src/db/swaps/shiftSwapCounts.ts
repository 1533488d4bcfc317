import type { Queryable } from '../Database.ts';
import { NEXT_ROW_VERSION, bumpDataVersion } from '../bumpDataVersion.ts';
import { touchTokensPricedBy } from '../pools/upsertPools.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type SwapWindowShift = {
  /** The end of the 24 h window the stored figures are for (the previous batch's chain time). */
  since: Date;
  /** The new window's end (this batch's chain time); less than 24 h after `since`. */
  windowEnd: Date;
  /** The first block of the swaps stored since the figures were: every swap row at or above it entered the window. */
  enteredFromBlock: number;
};

/**
 * refreshSwapCounts' figures moved from the window ending at `since` to the one ending at
 * `windowEnd` by what changed, not recounted: the swaps stored from `enteredFromBlock` on are
 * added, those with a time in (since − 24 h, windowEnd − 24 h] taken off, on the tokens and pools
 * they belong to. Equal to refreshSwapCounts(windowEnd) when the stored figures were those of
 * the window ending at `since` and no swap was stored or removed since but the entered ones
 * (the caller recounts in full otherwise). Same writes: only rows whose figures change, a token's
 * updatedAt becomes `windowEnd`; `swapsByToken` receives each changed token's new swap count.
 * Returns the tokens whose figures changed.
 */
export async function shiftSwapCounts(db: Queryable, shift: SwapWindowShift, swapsByToken?: Map<string, number>): Promise<string[]> {
  const { since, windowEnd, enteredFromBlock } = shift;
  if (windowEnd.getTime() - since.getTime() >= DAY_MS) throw new RangeError('shiftSwapCounts: the window moved 24 h or more; recount it');
  const params = [enteredFromBlock, new Date(since.getTime() - DAY_MS).toISOString(), new Date(windowEnd.getTime() - DAY_MS).toISOString(), windowEnd.toISOString()];
  // The swap rows entering (+1) and leaving (−1) the window.
  const moved = `SELECT s.*, 1 AS sign FROM swaps s WHERE s.block_number >= $1
     UNION ALL
     SELECT s.*, -1 AS sign FROM swaps s WHERE s.occurred_at > $2 AND s.occurred_at <= $3`;
  const rows = await db.query<{ address: string; swaps: number }>(
    `WITH delta AS (
       SELECT token,
              sum(CASE WHEN side = 'buy' THEN sign ELSE 0 END)::int AS buys,
              sum(CASE WHEN side = 'sell' THEN sign ELSE 0 END)::int AS sells,
              sum(sign)::int AS swaps,
              coalesce(sum(sign * value_usd), 0) AS volume
       FROM (${moved}) m GROUP BY token
     )
     UPDATE tokens t SET buys = t.buys + d.buys, sells = t.sells + d.sells, swaps = t.swaps + d.swaps, volume24h = t.volume24h + d.volume,
       updated_at = GREATEST(t.updated_at, $4), row_version = ${NEXT_ROW_VERSION}
     FROM delta d
     WHERE t.address = d.token AND (d.buys, d.sells, d.swaps, d.volume) IS DISTINCT FROM (0, 0, 0, 0)
     RETURNING t.address, t.swaps`,
    params,
  );
  if (swapsByToken) for (const row of rows) swapsByToken.set(row.address, Number(row.swaps));
  // A pool's swap counts once (its larger side's value), as refreshSwapCounts counts it.
  const pools = await db.query<{ address: string }>(
    `WITH per_swap AS (
       SELECT pool, sign, max(value_usd) AS value FROM (${moved}) m GROUP BY pool, block_number, log_index, sign
     ), delta AS (
       SELECT pool, sum(sign)::int AS swaps, coalesce(sum(sign * value), 0) AS volume FROM per_swap GROUP BY pool
     )
     UPDATE pools p SET swaps24h = p.swaps24h + d.swaps, volume24h = p.volume24h + d.volume, row_version = ${NEXT_ROW_VERSION}
     FROM delta d
     WHERE p.address = d.pool AND (d.swaps, d.volume) IS DISTINCT FROM (0, 0)
     RETURNING p.address`,
    params.slice(0, 3),
  );
  await touchTokensPricedBy(db, pools.map((p) => p.address));
  if (rows.length > 0 || pools.length > 0) await bumpDataVersion(db);
  return rows.map((r) => r.address);
}
