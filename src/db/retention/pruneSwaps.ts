import type { Queryable } from '../Database.ts';
import { advanceHorizon, type PruneOptions } from './horizons.ts';

export const SWAPS_HORIZON = 'swaps';

/**
 * Deletes swap rows older than `cutoff`, oldest first, at most `batchRows` per statement (through
 * the occurred_at index) and `maxPasses` statements; the horizon records the newest time deleted.
 * Swaps feed only the rolling 24 h figures and a reorg's candle rebuild, so no row is carried.
 * Returns how many rows were deleted.
 */
export async function pruneSwaps(db: Queryable, cutoff: Date, options: PruneOptions): Promise<number> {
  let deleted = 0;
  for (let pass = 0; pass < options.maxPasses; pass++) {
    const rows = await db.query<{ n: number; newest: Date | null }>(
      `WITH doomed AS (
         SELECT block_number, log_index, token FROM swaps WHERE occurred_at < $1 ORDER BY occurred_at LIMIT $2
       ), gone AS (
         DELETE FROM swaps s USING doomed d
         WHERE s.block_number = d.block_number AND s.log_index = d.log_index AND s.token = d.token
         RETURNING s.occurred_at
       )
       SELECT count(*)::int AS n, max(occurred_at) AS newest FROM gone`,
      [cutoff.toISOString(), options.batchRows],
    );
    const n = Number(rows[0]?.n ?? 0);
    deleted += n;
    if (rows[0]?.newest) await advanceHorizon(db, SWAPS_HORIZON, new Date(rows[0].newest));
    if (n < options.batchRows) break;
  }
  return deleted;
}
