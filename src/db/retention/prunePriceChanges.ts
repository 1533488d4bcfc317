import type { Queryable } from '../Database.ts';
import { PRICE_CHANGES_HORIZON } from '../prices/loadPriceAt.ts';
import { advanceHorizon, readHorizon, type PruneOptions } from './horizons.ts';

/**
 * Prunes the price changes older than `cutoff` in block ranges of about `batchRows` changes,
 * oldest first, keeping each token's latest change up to the range's end (the price in force
 * after it). The horizon is the end of the last range pruned: a read at or after its block, or
 * at or after its time, finds the change it would have found before pruning (every deleted change
 * is older than a kept change of the same token that is still at or before the read). The block
 * index finds each range; the primary key finds each token's older changes. Returns how many rows
 * were deleted.
 */
export async function prunePriceChanges(db: Queryable, cutoff: Date, options: PruneOptions): Promise<number> {
  let after = (await readHorizon(db, PRICE_CHANGES_HORIZON))?.keptFromBlock ?? -1;
  let deleted = 0;
  for (let pass = 0; pass < options.maxPasses; pass++) {
    type End = { block: string; observedAt: Date };
    const [next] = await db.query<End>(
      `SELECT block_number::text AS block, observed_at AS "observedAt" FROM indexer_price_changes
       WHERE block_number > $1 ORDER BY block_number OFFSET $2 LIMIT 1`,
      [after, options.batchRows - 1],
    );
    let end: End | undefined = next;
    let last = false;
    if (!next || new Date(next.observedAt) >= cutoff) {
      // The range ends with the last change before the cutoff (at most batchRows rows to look at).
      [end] = await db.query<End>(
        `SELECT block_number::text AS block, observed_at AS "observedAt" FROM indexer_price_changes
         WHERE block_number > $1 AND ($2::bigint IS NULL OR block_number < $2) AND observed_at < $3
         ORDER BY block_number DESC LIMIT 1`,
        [after, next ? Number(next.block) : null, cutoff.toISOString()],
      );
      last = true;
    }
    if (!end) break;
    const endBlock = Number(end.block);
    const rows = await db.query<{ n: number }>(
      // A token keeps at most one change up to the last range pruned (`after`), so what goes is its
      // changes inside this range but its latest, found through the block index, and that one older
      // change, through the primary key (LIMIT 1: a join there lets the planner scan the table);
      // deleted by row address (a TID scan).
      `WITH chunk AS (
         SELECT token, max(block_number) AS last FROM indexer_price_changes WHERE block_number > $1 AND block_number <= $2 GROUP BY token
       ), doomed AS (
         SELECT o.ctid FROM indexer_price_changes o JOIN chunk ON o.token = chunk.token
         WHERE o.block_number > $1 AND o.block_number <= $2 AND o.block_number < chunk.last
         UNION ALL
         SELECT p.ctid FROM chunk CROSS JOIN LATERAL
           (SELECT ctid FROM indexer_price_changes p WHERE p.token = chunk.token AND p.block_number <= $1 ORDER BY p.block_number DESC LIMIT 1) p
       ), gone AS (
         DELETE FROM indexer_price_changes WHERE ctid = ANY (ARRAY(SELECT ctid FROM doomed)) RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [after, endBlock],
    );
    deleted += Number(rows[0]?.n ?? 0);
    await advanceHorizon(db, PRICE_CHANGES_HORIZON, new Date(end.observedAt), endBlock);
    after = endBlock;
    if (last) break;
  }
  return deleted;
}
