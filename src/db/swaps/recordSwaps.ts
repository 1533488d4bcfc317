import type { Queryable } from '../Database.ts';

export type SwapWrite = {
  blockNumber: number;
  logIndex: number;
  /** The token this row counts for; a pool swap gives one row per token of the pool. */
  token: string;
  side: 'buy' | 'sell';
  txHash: string;
  pool: string;
  occurredAt: Date;
  /** Base units of `token` the swap moved (either way). */
  amount: bigint;
  /** Their USD value at the token's price at the end of the swap's block; null while unpriced. */
  valueUsd: string | null;
};

/** Stores swaps; a swap already stored (same block, log index and token) is not counted twice. */
export async function recordSwaps(db: Queryable, swaps: readonly SwapWrite[]): Promise<void> {
  if (swaps.length === 0) return;
  await db.query(
    `INSERT INTO swaps (block_number, log_index, token, side, tx_hash, pool, occurred_at, amount, value_usd)
     SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
       $8::numeric[], $9::numeric[])
     ON CONFLICT DO NOTHING`,
    [
      swaps.map((s) => s.blockNumber),
      swaps.map((s) => s.logIndex),
      swaps.map((s) => s.token.toLowerCase()),
      swaps.map((s) => s.side),
      swaps.map((s) => s.txHash.toLowerCase()),
      swaps.map((s) => s.pool.toLowerCase()),
      swaps.map((s) => s.occurredAt.toISOString()),
      swaps.map((s) => s.amount.toString()),
      swaps.map((s) => s.valueUsd),
    ],
  );
}
