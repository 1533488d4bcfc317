// How long each growing table keeps its rows (docs/retention.md): RETENTION_* durations such as
// `30d`, `12h` or `forever`, each with a minimum below which something the service answers or
// needs would be lost, and the size of the pruning work.
import { CANDLE_INTERVALS, type CandleIntervalName } from './candleIntervals.ts';
import type { EnvReader } from './readEnv.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A retention in ms of chain time behind the last indexed block; null keeps rows forever. */
export type Retention = number | null;

export type RetentionConfig = {
  /** Raw swap rows (the 24 h counts and volumes, and a reorg's candle rebuild, read them). */
  swaps: Retention;
  /** Every price change (GET /prices/{contractAddress}/at, the 24 h variation). */
  priceChanges: Retention;
  /** Hourly price points (the 24-hour GET /prices histories). */
  pricePoints: Retention;
  /** Each candle interval. */
  candles: Record<CandleIntervalName, Retention>;
  /** Rows one pruning statement deletes at most. */
  batchRows: number;
  /** Pruning statements per table each time pruning runs; what is left waits for the next run. */
  maxPasses: number;
  /** Pruning runs in the batch that crosses a multiple of this block number. */
  everyBlocks: number;
};

export const retentionDefaults: RetentionConfig = {
  swaps: 2 * DAY_MS,
  priceChanges: 90 * DAY_MS,
  pricePoints: 48 * HOUR_MS,
  candles: { '5m': 30 * DAY_MS, '15m': 90 * DAY_MS, '1h': 365 * DAY_MS, '4h': 730 * DAY_MS, '1d': null },
  batchRows: 5000,
  maxPasses: 20,
  everyBlocks: 1000,
};

/**
 * The shortest retention each table accepts: swaps and price changes two days (the rolling 24 h
 * figures and a reorg's candle rebuild read a day back), hourly points 48 h (the 24-hour history
 * and its carried price), candles 100 intervals (the default answer).
 */
export const retentionMinimums = {
  swaps: 2 * DAY_MS,
  priceChanges: 2 * DAY_MS,
  pricePoints: 48 * HOUR_MS,
  candles: Object.fromEntries(CANDLE_INTERVALS.map((i) => [i.name, 100 * i.seconds * 1000])) as Record<CandleIntervalName, number>,
};

const UNITS: Record<string, number> = { m: 60_000, h: HOUR_MS, d: DAY_MS };

/** `forever`, or a whole number of minutes, hours or days: `90m`, `48h`, `30d`. */
export function parseRetention(raw: string): Retention | undefined {
  if (raw === 'forever') return null;
  const match = /^(\d{1,6})([mhd])$/.exec(raw);
  return match ? Number(match[1]) * UNITS[match[2]!]! : undefined;
}

const label = (ms: number) => (ms % DAY_MS === 0 ? `${ms / DAY_MS}d` : ms % HOUR_MS === 0 ? `${ms / HOUR_MS}h` : `${ms / 60_000}m`);

/**
 * RETENTION_SWAPS, RETENTION_PRICE_CHANGES, RETENTION_PRICE_POINTS, RETENTION_CANDLES_5M … _1D,
 * RETENTION_BATCH_ROWS, RETENTION_MAX_PASSES, RETENTION_EVERY_BLOCKS.
 */
export function readRetentionConfig(read: EnvReader): RetentionConfig {
  const d = retentionDefaults;
  const duration = (name: string, fallback: Retention, min: number): Retention => {
    const raw = read.string(name);
    if (raw === undefined) return fallback;
    const value = parseRetention(raw);
    if (value === undefined) read.problems.push(`${name}=${JSON.stringify(raw)}: expected a duration such as 30d, 12h, 90m, or forever`);
    else if (value !== null && value < min) read.problems.push(`${name}=${JSON.stringify(raw)}: must be at least ${label(min)}`);
    else return value;
    return fallback;
  };
  const m = retentionMinimums;
  return {
    swaps: duration('RETENTION_SWAPS', d.swaps, m.swaps),
    priceChanges: duration('RETENTION_PRICE_CHANGES', d.priceChanges, m.priceChanges),
    pricePoints: duration('RETENTION_PRICE_POINTS', d.pricePoints, m.pricePoints),
    candles: Object.fromEntries(
      CANDLE_INTERVALS.map((i) => [i.name, duration(`RETENTION_CANDLES_${i.name.toUpperCase()}`, d.candles[i.name], m.candles[i.name])]),
    ) as Record<CandleIntervalName, Retention>,
    batchRows: read.integer('RETENTION_BATCH_ROWS', d.batchRows, 100, 1_000_000),
    maxPasses: read.integer('RETENTION_MAX_PASSES', d.maxPasses, 1, 10_000),
    everyBlocks: read.integer('RETENTION_EVERY_BLOCKS', d.everyBlocks, 1, 10_000_000),
  };
}
