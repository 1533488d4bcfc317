// The last block whose data is fully stored, written in the same transaction as that data, and for a
// head-first bootstrap the block from which history is stored.
import type { Queryable } from '../Database.ts';

export type Checkpoint = { chainId: number; blockNumber: number; blockHash: string; blockTime: Date };

/**
 * History below the bootstrap block of a head-first bootstrap: stored for blocks >= `fromBlock`;
 * `fromTime` is the chain time of block fromBlock − 1 (figures about times at or after it are exact).
 */
export type HistoryWindow = { bootstrapBlock: number; fromBlock: number; fromTime: Date; complete: boolean };

export type CheckpointWithHistory = Checkpoint & {
  /** Null for a database indexed forward from its start block (its history is complete). */
  history: HistoryWindow | null;
  /** The bootstrap block's chain time (null: forward, or bootstrapped before it was stored). */
  bootstrapTime?: Date | null;
  /** Set when the edges' exact times are fixed only as at this head time (migration 021). */
  edgesFixedAt?: Date | null;
  /** Set while the candles lack the records of blocks from `fromBlock` on (db/candles/pendingCandles.ts). */
  candlesPending?: { fromBlock: number; throughTime: Date } | null;
};

export async function readCheckpoint(db: Queryable): Promise<CheckpointWithHistory | null> {
  const rows = await db.query<{
    chainId: string; blockNumber: string; blockHash: string; blockTime: Date;
    bootstrapBlock: string | null; fromBlock: string | null; fromTime: Date | null; complete: boolean; bootstrapTime: Date | null;
    edgesFixedAt: Date | null; candlesPendingFrom: string | null; candlesThroughTime: Date | null;
  }>(
    `SELECT chain_id::text AS "chainId", block_number::text AS "blockNumber", block_hash AS "blockHash",
            block_time AS "blockTime", bootstrap_block::text AS "bootstrapBlock", history_from_block::text AS "fromBlock",
            history_from_time AS "fromTime", history_complete AS complete, bootstrap_time AS "bootstrapTime",
            edges_fixed_at AS "edgesFixedAt", candles_pending_from::text AS "candlesPendingFrom", candles_through_time AS "candlesThroughTime"
     FROM indexer_checkpoint WHERE id = 1`,
  );
  const row = rows[0];
  if (!row) return null;
  const history = row.bootstrapBlock !== null && row.fromBlock !== null && row.fromTime !== null
    ? { bootstrapBlock: Number(row.bootstrapBlock), fromBlock: Number(row.fromBlock), fromTime: new Date(row.fromTime), complete: row.complete }
    : null;
  return {
    chainId: Number(row.chainId), blockNumber: Number(row.blockNumber), blockHash: row.blockHash, blockTime: new Date(row.blockTime), history,
    bootstrapTime: row.bootstrapTime === null ? null : new Date(row.bootstrapTime),
    edgesFixedAt: row.edgesFixedAt === null ? null : new Date(row.edgesFixedAt),
    candlesPending: row.candlesPendingFrom === null || row.candlesThroughTime === null
      ? null
      : { fromBlock: Number(row.candlesPendingFrom), throughTime: new Date(row.candlesThroughTime) },
  };
}

/** Moves the checkpoint; a head-first bootstrap's history window is kept (or set, when given). */
export async function writeCheckpoint(db: Queryable, cp: Checkpoint & { history?: HistoryWindow }): Promise<void> {
  await db.query(
    `INSERT INTO indexer_checkpoint (id, chain_id, block_number, block_hash, block_time, written_at)
     VALUES (1, $1, $2, $3, $4, now())
     ON CONFLICT (id) DO UPDATE SET chain_id = EXCLUDED.chain_id, block_number = EXCLUDED.block_number,
       block_hash = EXCLUDED.block_hash, block_time = EXCLUDED.block_time, written_at = now()`,
    [cp.chainId, cp.blockNumber, cp.blockHash, cp.blockTime.toISOString()],
  );
  // Published for the read model; while history is incomplete a later head can complete a window:
  // the version moves so readers look again.
  await db.query(
    `UPDATE data_version SET indexed_time = $1, version = version + CASE WHEN history_from IS NULL THEN 0 ELSE 1 END WHERE id = 1`,
    [cp.blockTime.toISOString()],
  );
  if (cp.history) await writeHistoryWindow(db, cp.history);
  // A head-first bootstrap: its block's time, kept for the rest of the fill.
  if (cp.history && cp.history.fromBlock === cp.history.bootstrapBlock + 1 && cp.blockNumber === cp.history.bootstrapBlock) {
    await db.query(`UPDATE indexer_checkpoint SET bootstrap_time = $1 WHERE id = 1`, [cp.blockTime.toISOString()]);
  }
}

/** The edges' exact times now hold as at the checkpoint (a forward step fixed them: exactEdgeTimes.ts). */
export async function clearEdgesFixedAt(db: Queryable): Promise<void> {
  await db.query(`UPDATE indexer_checkpoint SET edges_fixed_at = NULL WHERE id = 1 AND edges_fixed_at IS NOT NULL`);
}

export async function writeHistoryWindow(db: Queryable, h: HistoryWindow): Promise<void> {
  await db.query(
    `UPDATE indexer_checkpoint SET bootstrap_block = $1, history_from_block = $2, history_from_time = $3, history_complete = $4 WHERE id = 1`,
    [h.bootstrapBlock, h.fromBlock, h.fromTime.toISOString(), h.complete],
  );
  await db.query(`UPDATE data_version SET history_from = $1, version = version + 1 WHERE id = 1`, [h.complete ? null : h.fromTime.toISOString()]);
}

export async function deleteCheckpoint(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM indexer_checkpoint`);
  // The history below it goes too: no bucket of it is inexact any more.
  await db.query(`DELETE FROM indexer_inexact_buckets`);
  await db.query(`UPDATE data_version SET history_from = NULL, indexed_time = NULL WHERE id = 1`);
}
