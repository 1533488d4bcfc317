// Recent block hashes: the indexer compares them with the chain to find where a reorg forked.
import type { Queryable } from '../Database.ts';

export type StoredBlock = { number: number; hash: string; time: Date };

export async function saveBlocks(db: Queryable, blocks: readonly StoredBlock[], keep: number): Promise<void> {
  if (blocks.length === 0) return;
  await db.query(
    `INSERT INTO indexer_blocks (block_number, block_hash, block_time)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::timestamptz[])
     ON CONFLICT (block_number) DO UPDATE SET block_hash = EXCLUDED.block_hash, block_time = EXCLUDED.block_time`,
    [blocks.map((b) => b.number), blocks.map((b) => b.hash), blocks.map((b) => b.time.toISOString())],
  );
  // Keep the newest `keep` entries only.
  await db.query(
    `DELETE FROM indexer_blocks WHERE block_number < (
       SELECT min(block_number) FROM (SELECT block_number FROM indexer_blocks ORDER BY block_number DESC LIMIT $1) k)`,
    [keep],
  );
}

/** Stored blocks at or below `atOrBelow`, newest first. */
export async function listStoredBlocks(db: Queryable, atOrBelow: number): Promise<StoredBlock[]> {
  const rows = await db.query<{ number: string; hash: string; time: Date }>(
    `SELECT block_number::text AS number, block_hash AS hash, block_time AS time FROM indexer_blocks
     WHERE block_number <= $1 ORDER BY block_number DESC`,
    [atOrBelow],
  );
  return rows.map((r) => ({ number: Number(r.number), hash: r.hash, time: new Date(r.time) }));
}
