// The last block whose data is fully stored, written in the same transaction as that data.
import type { Queryable } from '../Database.ts';

export type Checkpoint = { chainId: number; blockNumber: number; blockHash: string; blockTime: Date };

export async function readCheckpoint(db: Queryable): Promise<Checkpoint | null> {
  const rows = await db.query<{ chainId: string; blockNumber: string; blockHash: string; blockTime: Date }>(
    `SELECT chain_id::text AS "chainId", block_number::text AS "blockNumber", block_hash AS "blockHash",
            block_time AS "blockTime" FROM indexer_checkpoint WHERE id = 1`,
  );
  const row = rows[0];
  if (!row) return null;
  return { chainId: Number(row.chainId), blockNumber: Number(row.blockNumber), blockHash: row.blockHash, blockTime: new Date(row.blockTime) };
}

export async function writeCheckpoint(db: Queryable, cp: Checkpoint): Promise<void> {
  await db.query(
    `INSERT INTO indexer_checkpoint (id, chain_id, block_number, block_hash, block_time, written_at)
     VALUES (1, $1, $2, $3, $4, now())
     ON CONFLICT (id) DO UPDATE SET chain_id = EXCLUDED.chain_id, block_number = EXCLUDED.block_number,
       block_hash = EXCLUDED.block_hash, block_time = EXCLUDED.block_time, written_at = now()`,
    [cp.chainId, cp.blockNumber, cp.blockHash, cp.blockTime.toISOString()],
  );
}

export async function deleteCheckpoint(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM indexer_checkpoint`);
}
