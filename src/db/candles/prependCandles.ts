import { CANDLE_INTERVALS } from '../../config/candleIntervals.ts';
import type { Queryable } from '../Database.ts';
import { bucketOf, type CandlePriceInput, type CandleSwapInput, type StoredCandle } from './candleTypes.ts';
import { fromScaled, toScaled } from './decimal.ts';
import { groupKey, mergeCandles } from './mergeCandles.ts';
import { writeCandleRows } from './rollupCandles.ts';

const ALL_INTERVALS = CANDLE_INTERVALS.map((i) => i.seconds);

type Row = Omit<StoredCandle, 'bucket' | 'lastBlock' | 'intervalSeconds'> & { intervalSeconds: number; bucket: Date; lastBlock: string };

/**
 * A history range filled below the stored candles (a head-first bootstrap fills newest first): the
 * range's price changes (the first of them the price in force before the range, carried) and swaps
 * rolled up on their own, then each bucket that already has a row, which the range precedes,
 * merged with it: open from the range, close from the stored row, the extremes of both, volumes and
 * counts added. Equal to rolling the same records up in time order. Carried prices are block 0's
 * records (no block's change): a row left with last_block 0 holds nothing but a carried price, and
 * is dropped once the range is filled past its bucket (after the bucket of `carriedAt`, the time of
 * the range's own carried prices; all of them when the range carries none; only those of
 * `carriedOf` when given, the tokens whose prices the range carries). Returns the rows written (a
 * stored row the merge leaves unchanged is not written).
 */
export async function prependCandles(
  db: Queryable,
  prices: readonly CandlePriceInput[],
  swaps: readonly CandleSwapInput[],
  carriedAt: Date | null,
  intervals: readonly number[] = ALL_INTERVALS,
  carriedOf?: readonly string[],
): Promise<number> {
  // With `carriedOf`, only those tokens' carried rows move down (the range carries only their prices).
  const only = carriedOf ? carriedOf.map((t) => t.toLowerCase()) : null;
  for (const seconds of intervals) {
    await db.query(
      `DELETE FROM candles WHERE interval_s = $1 AND last_block = 0 AND ($2::timestamptz IS NULL OR bucket > $2) AND ($3::text[] IS NULL OR token = ANY($3))`,
      [seconds, carriedAt ? new Date(bucketOf(carriedAt.getTime(), seconds)).toISOString() : null, only],
    );
  }
  const rows = mergeCandles(
    prices.map((p) => ({ ...p, token: p.token.toLowerCase() })),
    swaps.map((s) => ({ ...s, token: s.token.toLowerCase() })),
    intervals,
    new Map(),
  );
  if (rows.length === 0) return 0;
  const stored = await db.query<Row>(
    `SELECT c.token, c.interval_s AS "intervalSeconds", c.bucket, c.open::text AS open, c.high::text AS high, c.low::text AS low,
            c.close::text AS close, c.volume_usd::text AS "volumeUsd", c.volume::text AS volume, c.swaps, c.last_block::text AS "lastBlock"
     FROM unnest($1::text[], $2::int[], $3::timestamptz[]) AS k(token, interval_s, bucket)
     JOIN candles c ON c.token = k.token AND c.interval_s = k.interval_s AND c.bucket = k.bucket`,
    [rows.map((r) => r.token), rows.map((r) => r.intervalSeconds), rows.map((r) => new Date(r.bucket).toISOString())],
  );
  const later = new Map(stored.map((r) => [`${groupKey(r.token, Number(r.intervalSeconds))}|${new Date(r.bucket).getTime()}`, r]));
  const merged: StoredCandle[] = [];
  for (const row of rows) {
    const after = later.get(`${groupKey(row.token, row.intervalSeconds)}|${row.bucket}`);
    const next = after ? prepend(row, after) : row;
    // A stored row the range leaves as it is (most often: a carried price equal to the row's own) is not written again.
    if (!after || !sameCandle(next, after)) merged.push(next);
  }
  await writeCandleRows(db, merged);
  return merged.length;
}

function sameCandle(a: StoredCandle, b: Row): boolean {
  return a.open === b.open && a.high === b.high && a.low === b.low && a.close === b.close && a.volumeUsd === b.volumeUsd
    && a.volume === b.volume && a.swaps === Number(b.swaps) && a.lastBlock === Number(b.lastBlock);
}

const big = (v: string | null) => (v === null ? null : toScaled(v));
const pick = (a: string | null, b: string | null, better: (x: bigint, y: bigint) => boolean) => {
  if (a === null) return b;
  if (b === null) return a;
  return better(big(a)!, big(b)!) ? a : b;
};

/** `earlier` (the range's part of a bucket) followed by `later` (the stored part of the same bucket). */
function prepend(earlier: StoredCandle, later: Row): StoredCandle {
  return {
    ...earlier,
    open: earlier.open ?? later.open,
    high: pick(earlier.high, later.high, (x, y) => x >= y),
    low: pick(earlier.low, later.low, (x, y) => x <= y),
    close: later.close ?? earlier.close,
    volumeUsd: fromScaled(toScaled(earlier.volumeUsd) + toScaled(later.volumeUsd)),
    volume: (BigInt(earlier.volume) + BigInt(later.volume)).toString(),
    swaps: earlier.swaps + Number(later.swaps),
    lastBlock: Math.max(earlier.lastBlock, Number(later.lastBlock)),
  };
}
