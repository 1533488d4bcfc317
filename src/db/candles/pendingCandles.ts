// Candles a step left to roll up after its commit (migration 023): the step that reprices much of
// the catalogue at once commits its rows and checkpoint first, and the indexer rolls its records
// into the candles right after, in a transaction of its own. Until then the candle series ends at
// the block before the first pending one, so that every candle answer is exact at the time it names.
import type { Queryable } from '../Database.ts';
import { bumpDataVersion } from '../bumpDataVersion.ts';
import { loadCandleInputs } from './loadCandleInputs.ts';
import { rollupCandles } from './rollupCandles.ts';

/** The first block whose price changes and swaps the candles lack, and the time of the block before it. */
export type CandlesPending = { fromBlock: number; throughTime: Date };

/** Records that the candles lack blocks from `pending.fromBlock` on (kept when already pending: the earliest stands). */
export async function markCandlesPending(db: Queryable, pending: CandlesPending): Promise<void> {
  await db.query(
    `UPDATE indexer_checkpoint SET candles_pending_from = $1, candles_through_time = $2 WHERE id = 1 AND candles_pending_from IS NULL`,
    [pending.fromBlock, pending.throughTime.toISOString()],
  );
}

/**
 * Rolls the pending blocks' records up to `toBlock` (the checkpoint's block) into the candles and
 * clears the mark, in the caller's transaction; returns the candle rows written (0 when nothing was
 * pending).
 */
export async function rollupPendingCandles(db: Queryable, toBlock: number): Promise<number> {
  const [row] = await db.query<{ fromBlock: string | null }>(`SELECT candles_pending_from::text AS "fromBlock" FROM indexer_checkpoint WHERE id = 1`);
  if (!row?.fromBlock) return 0;
  const { prices, swaps } = await loadCandleInputs(db, { fromBlock: Number(row.fromBlock), toBlock });
  const written = await rollupCandles(db, prices, swaps);
  await clearCandlesPending(db);
  await bumpDataVersion(db);
  return written;
}

/**
 * Clears the mark: what was pending is rolled up, or (`above`) a rollback removed the blocks above
 * that one, and with them every pending record when the first pending block is among them.
 */
export async function clearCandlesPending(db: Queryable, above = -1): Promise<void> {
  await db.query(`UPDATE indexer_checkpoint SET candles_pending_from = NULL, candles_through_time = NULL WHERE id = 1 AND candles_pending_from > $1`, [above]);
}
