// The latest stored buy and sell of a token: the swaps the sellability check reads receipts of.
import type { Queryable } from '../Database.ts';

export type RecentSwap = { side: 'buy' | 'sell'; txHash: string; pool: string; amount: bigint; blockNumber: number; logIndex: number };

export async function recentSwaps(db: Queryable, token: string): Promise<RecentSwap[]> {
  const found: RecentSwap[] = [];
  for (const side of ['buy', 'sell'] as const) {
    const rows = await db.query<{ tx: string; pool: string; amount: string; block: string; logIndex: number }>(
      `SELECT tx_hash AS tx, pool, amount::text AS amount, block_number::text AS block, log_index AS "logIndex"
       FROM swaps WHERE token = $1 AND side = $2 ORDER BY occurred_at DESC, block_number DESC, log_index DESC LIMIT 1`,
      [token, side],
    );
    const r = rows[0];
    if (r) found.push({ side, txHash: r.tx, pool: r.pool, amount: BigInt(r.amount), blockNumber: Number(r.block), logIndex: Number(r.logIndex) });
  }
  return found;
}

/** Which of `tokens` have a swap stored (one index probe each). */
export async function tokensWithSwaps(db: Queryable, tokens: readonly string[]): Promise<Set<string>> {
  if (tokens.length === 0) return new Set();
  const rows = await db.query<{ token: string }>(
    `SELECT t.token FROM unnest($1::text[]) AS t(token) WHERE EXISTS (SELECT 1 FROM swaps s WHERE s.token = t.token)`,
    [tokens],
  );
  return new Set(rows.map((r) => r.token));
}
