import { candlesHorizon, loadCandles, loadHeadTime, type CandleRead, type Queryable } from '../../db/index.ts';
import { NotFoundError, ValidationError } from '../../errors/index.ts';
import type { OperationParams } from '../../../generated/openapi/operations.ts';
import type { Json } from '../json.ts';
import type { CandleSeries } from '../types.ts';
import { resolveCandleRange, type CandleEnd, type CandleRange } from './resolveCandleRange.ts';
import { serialiseCandles } from './serialiseCandles.ts';

const HEAD = "the chain's head";

/**
 * GET /prices/{contractAddress}/candles from the candles the indexer rolled up. The series ends
 * at the chain's head as indexed (the checkpoint's block time), not the wall clock, which stands
 * in only while no block is indexed. One statement per answer while the head is in the wall
 * clock's interval (a live chain): it reads the range that ends now and the head with it. When
 * the head lags (a paused chain, an indexer catching up) the range that ends at the head is read
 * by a second statement; when the range ending now is refused (from after now, too wide) the
 * head is read first. The response cache keeps answers per data version and five minutes of wall
 * clock. NotFoundError for a token that is not indexed, ValidationError for a range before the
 * interval's retention horizon, after the head, or wider than 1000 candles.
 */
export function createCandlesReader(db: Queryable): (params: OperationParams['getTokenCandles'], now: Date) => Promise<Json<CandleSeries>> {
  const endOf = (headTime: number | null, now: Date): CandleEnd => (headTime === null ? { ms: now.getTime(), name: 'now' } : { ms: headTime, name: HEAD });
  const load = async (params: OperationParams['getTokenCandles'], range: CandleRange): Promise<CandleRead> => {
    const read = await loadCandles(db, params.contractAddress, range.seconds, new Date(range.from), new Date(range.to), candlesHorizon(range.interval));
    if (read === undefined) throw new NotFoundError(`No token ${params.contractAddress} is indexed.`);
    return read;
  };

  return async (params, now) => {
    let range: CandleRange | undefined;
    try {
      range = resolveCandleRange(params, { ms: now.getTime(), name: 'now' });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error; // the head may cut the range short, or lie ahead of the clock
    }
    let read = range && (await load(params, range));
    const atHead = resolveCandleRange(params, endOf(read ? read.headTime : await loadHeadTime(db), now));
    if (!read || !range || atHead.from !== range.from || atHead.to !== range.to) read = await load(params, atHead);
    if (read.keptFrom !== null && atHead.from < read.keptFrom) {
      throw new ValidationError([{
        field: 'from', in: 'query',
        message: `is before the earliest ${atHead.interval} candle kept, ${new Date(read.keptFrom).toISOString()} (retention)`,
      }]);
    }
    return serialiseCandles(read, atHead);
  };
}
