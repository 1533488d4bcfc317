import { candlesHorizon, loadCandles, type Queryable } from '../../db/index.ts';
import { NotFoundError, ValidationError } from '../../errors/index.ts';
import type { OperationParams } from '../../../generated/openapi/operations.ts';
import type { Json } from '../json.ts';
import type { CandleSeries } from '../types.ts';
import { resolveCandleRange } from './resolveCandleRange.ts';
import { serialiseCandles } from './serialiseCandles.ts';

/**
 * GET /prices/{contractAddress}/candles from the candles the indexer rolled up: one statement per
 * answer (the response cache keeps answers per data version and five minutes of wall clock).
 * NotFoundError for a token that is not indexed, ValidationError for a range before the
 * interval's retention horizon.
 */
export function createCandlesReader(db: Queryable): (params: OperationParams['getTokenCandles'], now: Date) => Promise<Json<CandleSeries>> {
  return async (params, now) => {
    const range = resolveCandleRange(params, now);
    const read = await loadCandles(db, params.contractAddress, range.seconds, new Date(range.from), new Date(range.to), candlesHorizon(range.interval));
    if (read === undefined) throw new NotFoundError(`No token ${params.contractAddress} is indexed.`);
    if (read.keptFrom !== null && range.from < read.keptFrom) {
      throw new ValidationError([{
        field: 'from', in: 'query',
        message: `is before the earliest ${range.interval} candle kept, ${new Date(read.keptFrom).toISOString()} (retention)`,
      }]);
    }
    return serialiseCandles(read, range);
  };
}
