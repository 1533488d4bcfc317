import type { OperationParams } from '../../../generated/openapi/operations.ts';
import { intervalSeconds, type CandleIntervalName } from '../../config/candleIntervals.ts';
import { bucketOf } from '../../db/index.ts';
import { ValidationError } from '../../errors/index.ts';
import { parseUtcTime } from '../parseUtcTime.ts';

/** The most candles one answer holds. */
export const MAX_CANDLES = 1000;
/** Candles in an answer without `from` (and without `to`, ending at the head). */
export const DEFAULT_CANDLES = 100;

/** A candles request's range: its interval (the spec's default applied), `from` and `to`. */
export type CandlesQuery = Pick<OperationParams['getTokenCandles'], 'interval' | 'from' | 'to'>;

/** The intervals an answer covers: starts (ms since the epoch) of the first and the last. */
export type CandleRange = { interval: CandleIntervalName; seconds: number; from: number; to: number };

/**
 * Where a series ends: the time of the chain's head as indexed, or the wall clock while no block
 * is indexed; `name` is how a 400 names it.
 */
export type CandleEnd = { ms: number; name: string };

/** The buckets `from` and `to` fall in, as asked (before the end is known); a ValidationError naming a bad time or `from` after `to`. */
export type AskedCandleRange = { seconds: number; from: number | undefined; to: number | undefined };

const iso = (ms: number) => new Date(ms).toISOString();

/** The range as asked, read before the head is known (the statement that reads the candles reads the head too). */
export function askedCandleRange(query: CandlesQuery): AskedCandleRange {
  const seconds = intervalSeconds(query.interval);
  const to = query.to === undefined ? undefined : bucketOf(parseUtcTime(query.to, 'to'), seconds);
  const from = query.from === undefined ? undefined : bucketOf(parseUtcTime(query.from, 'from'), seconds);
  if (from !== undefined && to !== undefined && from > to) {
    throw new ValidationError([{ field: 'from', in: 'query', message: `must not be after \`to\` (the ${query.interval} interval starting ${iso(to)})` }]);
  }
  return { seconds, from, to };
}

/**
 * The range a candles request asks for, ending at `end` (the chain's head): the intervals that
 * contain `from` and `to`, `to` no later than the interval that contains the end, by default the
 * last 100 intervals ending with `to` (or the end's). A ValidationError naming the field when
 * `from` comes after `to` (or the end), or when the range holds more than 1000 candles.
 */
export function resolveCandleRange(query: CandlesQuery, end: CandleEnd): CandleRange {
  const interval = query.interval;
  const asked = askedCandleRange(query);
  const step = asked.seconds * 1000;
  const last = bucketOf(end.ms, asked.seconds);
  const to = asked.to === undefined ? last : Math.min(last, asked.to);
  const from = asked.from ?? to - (DEFAULT_CANDLES - 1) * step;
  if (from > to) {
    throw new ValidationError([{ field: 'from', in: 'query', message: `must not be after ${end.name} (the ${interval} interval starting ${iso(to)})` }]);
  }
  const count = (to - from) / step + 1;
  if (count > MAX_CANDLES) {
    throw new ValidationError([{
      field: 'from', in: 'query',
      message: `asks for ${count} candles of ${interval} (${iso(from)} to ${iso(to)}): at most ${MAX_CANDLES} per answer`,
    }]);
  }
  return { interval, seconds: asked.seconds, from, to };
}
