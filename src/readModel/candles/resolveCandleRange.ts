import type { OperationParams } from '../../../generated/openapi/operations.ts';
import { intervalSeconds, type CandleIntervalName } from '../../config/candleIntervals.ts';
import { bucketOf } from '../../db/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { parseUtcTime } from '../parseUtcTime.ts';

/** The most candles one answer holds. */
export const MAX_CANDLES = 1000;
/** Candles in an answer without `from` (and without `to`, ending now). */
export const DEFAULT_CANDLES = 100;

/** A candles request's range: its interval (the spec's default applied), `from` and `to`. */
export type CandlesQuery = Pick<OperationParams['getTokenCandles'], 'interval' | 'from' | 'to'>;

/** The intervals an answer covers: starts (ms since the epoch) of the first and the last. */
export type CandleRange = { interval: CandleIntervalName; seconds: number; from: number; to: number };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The range a candles request asks for, at the wall clock `now`: the intervals that contain
 * `from` and `to`, `to` no later than the current interval, by default the last 100 intervals
 * ending with `to` (or now). A ValidationError naming the field when `from` comes after `to`, or
 * when the range holds more than 1000 candles.
 */
export function resolveCandleRange(query: CandlesQuery, now: Date): CandleRange {
  const interval = query.interval;
  const seconds = intervalSeconds(interval);
  const step = seconds * 1000;
  const current = bucketOf(now.getTime(), seconds);
  const to = query.to === undefined ? current : Math.min(current, bucketOf(parseUtcTime(query.to, 'to'), seconds));
  const from = query.from === undefined ? to - (DEFAULT_CANDLES - 1) * step : bucketOf(parseUtcTime(query.from, 'from'), seconds);
  if (from > to) {
    throw new ValidationError([{ field: 'from', in: 'query', message: `must not be after ${query.to === undefined ? 'now' : '`to`'} (the ${interval} interval starting ${iso(to)})` }]);
  }
  const count = (to - from) / step + 1;
  if (count > MAX_CANDLES) {
    throw new ValidationError([{
      field: 'from', in: 'query',
      message: `asks for ${count} candles of ${interval} (${iso(from)} to ${iso(to)}): at most ${MAX_CANDLES} per answer`,
    }]);
  }
  return { interval, seconds, from, to };
}
