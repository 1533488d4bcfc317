import { CANDLE_INTERVALS } from '../../config/candleIntervals.ts';
import type { Queryable } from '../Database.ts';
import { bucketOf } from './candleTypes.ts';
import { loadCandleInputs } from './loadCandleInputs.ts';
import { rollupCandles } from './rollupCandles.ts';

/**
 * Reorg rollback of the candles, after the swaps and price changes above `block` are deleted (in
 * the caller's transaction): every candle a removed block contributed to is deleted (for each
 * (token, interval) the newest ones: later records have later blocks) and rebuilt from the swaps
 * and price changes that remain in it, by the same roll-up as the indexer's. `blockTime` (the time
 * of `block`, when known) bounds the search to the intervals that contain it or come after.
 */
export async function rollbackCandles(db: Queryable, block: number, blockTime: Date | null): Promise<void> {
  const rebuild = new Map<number, Map<string, number>>(); // interval → token → first deleted bucket
  for (const { seconds } of CANDLE_INTERVALS) {
    const deleted = blockTime
      ? await db.query<{ token: string; bucket: Date }>(
          `DELETE FROM candles WHERE interval_s = $1 AND bucket >= $2 AND last_block > $3 RETURNING token, bucket`,
          [seconds, new Date(bucketOf(blockTime.getTime(), seconds)).toISOString(), block],
        )
      : await db.query<{ token: string; bucket: Date }>(
          `DELETE FROM candles WHERE interval_s = $1 AND last_block > $2 RETURNING token, bucket`,
          [seconds, block],
        );
    const firsts = new Map<string, number>();
    for (const row of deleted) {
      const ms = new Date(row.bucket).getTime();
      firsts.set(row.token, Math.min(firsts.get(row.token) ?? ms, ms));
    }
    if (firsts.size > 0) rebuild.set(seconds, firsts);
  }
  if (rebuild.size === 0) return;
  const tokens = [...new Set([...rebuild.values()].flatMap((m) => [...m.keys()]))];
  const since = Math.min(...[...rebuild.values()].flatMap((m) => [...m.values()]));
  const { prices, swaps } = await loadCandleInputs(db, { toBlock: block, tokens, since: new Date(since) });
  for (const [seconds, firsts] of rebuild) {
    const inRange = (token: string, ms: number) => {
      const first = firsts.get(token);
      return first !== undefined && ms >= first;
    };
    await rollupCandles(
      db,
      prices.filter((p) => inRange(p.token, p.observedAt.getTime())),
      swaps.filter((s) => inRange(s.token, s.occurredAt.getTime())),
      [seconds],
    );
  }
}
