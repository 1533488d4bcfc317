import { CANDLE_INTERVALS } from '../../config/candleIntervals.ts';
import type { RetentionConfig } from '../../config/retentionConfig.ts';
import type { Queryable } from '../Database.ts';
import { bumpDataVersion } from '../bumpDataVersion.ts';
import { bucketOf } from '../candles/candleTypes.ts';
import { prunePricePoints } from '../prices/prunePricePoints.ts';
import { pruneCandles } from './pruneCandles.ts';
import { prunePriceChanges } from './prunePriceChanges.ts';
import { pruneSwaps } from './pruneSwaps.ts';

export type RetentionResult = { swaps: number; priceChanges: number; pricePoints: number; candles: Record<string, number> };

/**
 * Prunes every table with a retention, each behind `newest` (the chain time of the last indexed
 * block) by its own duration, in bounded statements (docs/retention.md). The data version moves
 * when price changes or candles went: a read before a horizon that moved is now refused.
 */
export async function applyRetention(db: Queryable, config: RetentionConfig, newest: Date): Promise<RetentionResult> {
  const options = { batchRows: config.batchRows, maxPasses: config.maxPasses };
  const behind = (ms: number) => new Date(newest.getTime() - ms);
  const result: RetentionResult = { swaps: 0, priceChanges: 0, pricePoints: 0, candles: {} };
  if (config.swaps !== null) result.swaps = await pruneSwaps(db, behind(config.swaps), options);
  if (config.priceChanges !== null) result.priceChanges = await prunePriceChanges(db, behind(config.priceChanges), options);
  if (config.pricePoints !== null) result.pricePoints = await prunePricePoints(db, { newest, keepMs: config.pricePoints });
  for (const interval of CANDLE_INTERVALS) {
    const keep = config.candles[interval.name];
    if (keep === null) continue;
    const cutoff = new Date(bucketOf(newest.getTime() - keep, interval.seconds));
    result.candles[interval.name] = await pruneCandles(db, interval, cutoff, options);
  }
  if (result.priceChanges > 0 || Object.values(result.candles).some((n) => n > 0)) await bumpDataVersion(db);
  return result;
}
