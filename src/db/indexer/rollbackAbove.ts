// Reorg rollback: removes everything the indexer wrote for blocks above `block`, in the caller's
// transaction. Hourly price points overwritten by a removed block get their earlier value back;
// candles a removed block contributed to are rebuilt from what remains.
import type { Queryable } from '../Database.ts';
import { bumpDataGeneration } from '../bumpDataVersion.ts';
import { clearCandlesPending } from '../candles/pendingCandles.ts';
import { rollbackCandles } from '../candles/rollbackCandles.ts';

export async function rollbackAbove(db: Queryable, block: number): Promise<void> {
  await db.query(`DELETE FROM swaps WHERE block_number > $1`, [block]);
  const dropped = await db.query<{ token: string; hour: Date }>(
    `DELETE FROM price_points WHERE block_number > $1 RETURNING token, hour`,
    [block],
  );
  for (const sql of [
    `DELETE FROM indexer_price_changes WHERE block_number > $1`,
    `DELETE FROM indexer_feed_answers WHERE block_number > $1`,
    `DELETE FROM indexer_pool_states WHERE block_number > $1`,
    `DELETE FROM indexer_pool_positions WHERE block_number > $1`,
    `DELETE FROM indexer_pools WHERE created_block > $1`,
    `DELETE FROM pools WHERE created_block > $1`,
    `DELETE FROM tokens WHERE created_block > $1`,
    `DELETE FROM indexer_tokens WHERE first_seen_block > $1`,
    `DELETE FROM indexer_blocks WHERE block_number > $1`,
  ]) {
    await db.query(sql, [block]);
  }
  const [stored] = await db.query<{ time: Date }>(`SELECT block_time AS time FROM indexer_blocks WHERE block_number = $1`, [block]);
  await rollbackCandles(db, block, stored ? new Date(stored.time) : null);
  // Blocks the candles still lacked are gone above `block`; at or below it they stay pending.
  await clearCandlesPending(db, block);
  // Nothing indexed is left (a re-index from the start block): pruning starts over too.
  await db.query(`DELETE FROM retention_horizons WHERE NOT EXISTS (SELECT 1 FROM indexer_blocks)`);
  await bumpDataGeneration(db); // rows were deleted: API processes reload their catalogue in full
  if (dropped.length === 0) return;
  // The bucket's value before the removed blocks: its latest surviving observation in that hour.
  await db.query(
    `INSERT INTO price_points (token, hour, price, observed_at, block_number)
     SELECT DISTINCT ON (c.token, h.hour) c.token, h.hour, c.price, c.observed_at, c.block_number
     FROM unnest($1::text[], $2::timestamptz[]) AS h(token, hour)
     JOIN indexer_price_changes c ON c.token = h.token AND c.price IS NOT NULL
       AND c.observed_at >= h.hour AND c.observed_at < h.hour + interval '1 hour'
     JOIN tokens t ON t.address = c.token
     ORDER BY c.token, h.hour, c.observed_at DESC, c.block_number DESC
     ON CONFLICT (token, hour) DO NOTHING`,
    [dropped.map((d) => d.token), dropped.map((d) => new Date(d.hour).toISOString())],
  );
}
