import { bucketOf, candlesHorizon, loadCandles, type Queryable } from '../../db/index.ts';
import { NotFoundError, ValidationError } from '../../errors/index.ts';
import type { OperationParams } from '../../../generated/openapi/operations.ts';
import type { Json } from '../json.ts';
import type { CandleSeries } from '../types.ts';
import { askedCandleRange, DEFAULT_CANDLES, MAX_CANDLES, resolveCandleRange } from './resolveCandleRange.ts';
import { serialiseCandles } from './serialiseCandles.ts';

/**
 * GET /prices/{contractAddress}/candles from the candles the indexer rolled up: one statement per
 * answer (the response cache keeps answers per data version and five minutes of wall clock). The
 * series ends at the chain's head as indexed (the checkpoint's block time, read in the same
 * statement), not the wall clock, which stands in only while no block is indexed.
 * NotFoundError for a token that is not indexed, ValidationError for a range before the
 * interval's retention horizon, after the head, or wider than 1000 candles.
 */
export function createCandlesReader(db: Queryable): (params: OperationParams['getTokenCandles'], now: Date) => Promise<Json<CandleSeries>> {
  return async (params, now) => {
    const asked = askedCandleRange(params);
    const read = await loadCandles(db, params.contractAddress, asked.seconds, {
      from: asked.from === undefined ? null : new Date(asked.from),
      to: asked.to === undefined ? null : new Date(asked.to),
      now: new Date(bucketOf(now.getTime(), asked.seconds)),
      spanSeconds: (DEFAULT_CANDLES - 1) * asked.seconds,
      maxSpanSeconds: (MAX_CANDLES - 1) * asked.seconds,
    }, candlesHorizon(params.interval));
    if (read === undefined) throw new NotFoundError(`No token ${params.contractAddress} is indexed.`);
    const range = resolveCandleRange(params, read.headTime === null ? { ms: now.getTime(), name: 'now' } : { ms: read.headTime, name: "the chain's head" });
    if (read.keptFrom !== null && range.from < read.keptFrom) {
      throw new ValidationError([{
        field: 'from', in: 'query',
        message: `is before the earliest ${range.interval} candle kept, ${new Date(read.keptFrom).toISOString()} (retention)`,
      }]);
    }
    return serialiseCandles(read, range);
  };
}
