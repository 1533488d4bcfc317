// The candle roll-up's arithmetic, without the database: a batch of price changes and swaps, in
// block order, added to the latest stored candle of each (token, interval).
import { bucketOf, type CandlePriceInput, type CandleSwapInput, type StoredCandle } from './candleTypes.ts';
import { fromScaled, toScaled } from './decimal.ts';

/** What a batch adds to one interval of one token. */
type Partial = {
  bucket: number;
  first: bigint | null;
  last: bigint | null;
  high: bigint | null;
  low: bigint | null;
  volumeUsd: bigint;
  volume: bigint;
  swaps: number;
  lastBlock: number;
};

export const groupKey = (token: string, seconds: number) => `${token}|${seconds}`;

const max = (a: bigint | null, b: bigint | null) => (a === null ? b : b === null || a >= b ? a : b);
const min = (a: bigint | null, b: bigint | null) => (a === null ? b : b === null || a <= b ? a : b);
const scaled = (text: string | null) => (text === null ? null : toScaled(text));
const text = (value: bigint | null) => (value === null ? null : fromScaled(value));

/**
 * The rows to write for a batch: for each (token, interval) the buckets it touches, merged with
 * `latest`, the newest stored row of that (token, interval) (records arrive in time order, so no
 * earlier row can change). The price series is a step function: `open` is the price in force when
 * the interval starts (the previous close; for the first priced interval, its first price), `high`
 * and `low` its extremes over the interval, `close` the price in force at the end. Null prices (a
 * token that lost its price) are skipped: the last price carries on, as in the hourly history.
 * Volumes and counts add up. Independent of how the records are cut into batches.
 */
export function mergeCandles(
  prices: readonly CandlePriceInput[],
  swaps: readonly CandleSwapInput[],
  intervals: readonly number[],
  latest: ReadonlyMap<string, StoredCandle>,
): StoredCandle[] {
  const groups = new Map<string, Map<number, Partial>>();
  const partial = (token: string, seconds: number, ms: number, block: number): Partial => {
    const key = groupKey(token, seconds);
    let buckets = groups.get(key);
    if (!buckets) groups.set(key, (buckets = new Map()));
    const bucket = bucketOf(ms, seconds);
    let p = buckets.get(bucket);
    if (!p) buckets.set(bucket, (p = { bucket, first: null, last: null, high: null, low: null, volumeUsd: 0n, volume: 0n, swaps: 0, lastBlock: block }));
    if (block > p.lastBlock) p.lastBlock = block;
    return p;
  };
  const ordered = prices.filter((p) => p.price !== null).sort((a, b) => a.blockNumber - b.blockNumber);
  for (const seconds of intervals) {
    for (const change of ordered) {
      const p = partial(change.token, seconds, change.observedAt.getTime(), change.blockNumber);
      const price = toScaled(change.price!);
      p.first ??= price;
      p.last = price;
      p.high = max(p.high, price);
      p.low = min(p.low, price);
    }
    for (const swap of swaps) {
      const p = partial(swap.token, seconds, swap.occurredAt.getTime(), swap.blockNumber);
      if (swap.valueUsd !== null) p.volumeUsd += toScaled(swap.valueUsd);
      p.volume += swap.amount;
      p.swaps += 1;
    }
  }

  const rows: StoredCandle[] = [];
  for (const [key, buckets] of groups) {
    const sep = key.lastIndexOf('|');
    const token = key.slice(0, sep);
    const seconds = Number(key.slice(sep + 1));
    const stored = latest.get(key);
    // The price in force before each bucket of the batch: the stored close, then each bucket's own.
    let carried = scaled(stored?.close ?? null);
    for (const p of [...buckets.values()].sort((a, b) => a.bucket - b.bucket)) {
      const existing = stored && stored.bucket === p.bucket ? stored : undefined;
      const open = existing ? (scaled(existing.open) ?? p.first) : (carried ?? p.first);
      const close = p.last ?? (existing ? scaled(existing.close) : open);
      const high = max(max(existing ? scaled(existing.high) : null, open), p.high);
      const low = min(min(existing ? scaled(existing.low) : null, open), p.low);
      rows.push({
        token, intervalSeconds: seconds, bucket: p.bucket,
        open: text(open), high: text(high), low: text(low), close: text(close),
        volumeUsd: fromScaled((existing ? toScaled(existing.volumeUsd) : 0n) + p.volumeUsd),
        volume: ((existing ? BigInt(existing.volume) : 0n) + p.volume).toString(),
        swaps: (existing?.swaps ?? 0) + p.swaps,
        lastBlock: Math.max(existing?.lastBlock ?? 0, p.lastBlock),
      });
      carried = close ?? carried;
    }
  }
  return rows;
}
