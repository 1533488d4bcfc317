import type { Queryable } from '../Database.ts';
import type { CandlePriceInput, CandleSwapInput } from './candleTypes.ts';

/** Which stored records to read: blocks in [fromBlock, toBlock], optionally only `tokens` and times from `since`. */
export type CandleInputScope = { fromBlock?: number; toBlock: number; tokens?: readonly string[]; since?: Date };

/** The stored price changes (in block order) and swaps the candles roll up, as the indexer wrote them. */
export async function loadCandleInputs(db: Queryable, scope: CandleInputScope): Promise<{ prices: CandlePriceInput[]; swaps: CandleSwapInput[] }> {
  type PriceRow = { token: string; blockNumber: string; price: string | null; observedAt: Date };
  type SwapRow = { token: string; blockNumber: string; occurredAt: Date; amount: string; valueUsd: string | null };
  const params = [scope.fromBlock ?? 0, scope.toBlock, scope.tokens ?? null, scope.since?.toISOString() ?? null];
  const prices = await db.query<PriceRow>(
    `SELECT token, block_number::text AS "blockNumber", price::text AS price, observed_at AS "observedAt" FROM indexer_price_changes
     WHERE block_number >= $1 AND block_number <= $2 AND ($3::text[] IS NULL OR token = ANY($3)) AND ($4::timestamptz IS NULL OR observed_at >= $4)
     ORDER BY block_number`,
    params,
  );
  const swaps = await db.query<SwapRow>(
    `SELECT token, block_number::text AS "blockNumber", occurred_at AS "occurredAt", amount::text AS amount, value_usd::text AS "valueUsd"
     FROM swaps WHERE block_number >= $1 AND block_number <= $2 AND ($3::text[] IS NULL OR token = ANY($3)) AND ($4::timestamptz IS NULL OR occurred_at >= $4)`,
    params,
  );
  return {
    prices: prices.map((r) => ({ token: r.token, blockNumber: Number(r.blockNumber), price: r.price, observedAt: new Date(r.observedAt) })),
    swaps: swaps.map((r) => ({ token: r.token, blockNumber: Number(r.blockNumber), occurredAt: new Date(r.occurredAt), amount: BigInt(r.amount), valueUsd: r.valueUsd })),
  };
}
