import type { CandleRead } from '../../db/index.ts';
import { toJson, type Json } from '../json.ts';
import { formatTokenUnits } from '../supply/formatTokenUnits.ts';
import type { CandleSeries } from '../types.ts';
import type { CandleRange } from './resolveCandleRange.ts';

type Candles = CandleSeries['candles'];

/**
 * The CandleSeries of a range from the stored candles (the first row may be the last priced one
 * before the range, whose close carries in): every interval from the first priced one to the end
 * of the range, an interval without a row carrying the previous close with volume 0. Intervals
 * before the token's first price (or rows of swaps before it) are left out.
 */
export function serialiseCandles(read: CandleRead, range: CandleRange): Json<CandleSeries> {
  const step = range.seconds * 1000;
  const candles: Candles = { timestamp: [], open: [], high: [], low: [], close: [], volume: [], volumeTokens: [], swaps: [] };
  const { rows } = read;
  let i = 0;
  let carried: number | null = null;
  while (i < rows.length && rows[i]!.bucket < range.from) carried = Number(rows[i++]!.close!);
  for (let bucket = range.from; bucket <= range.to; bucket += step) {
    const row = i < rows.length && rows[i]!.bucket === bucket ? rows[i++]! : undefined;
    if (row && row.close !== null) {
      carried = Number(row.close);
      push(candles, bucket, Number(row.open!), Number(row.high!), Number(row.low!), carried, Number(row.volumeUsd), formatTokenUnits(BigInt(row.volume), read.decimals), row.swaps);
    } else if (carried !== null) {
      push(candles, bucket, carried, carried, carried, carried, 0, '0', 0);
    }
  }
  return toJson<CandleSeries>({
    contractAddress: read.checksumAddress,
    interval: range.interval,
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    candles,
  });
}

function push(c: Candles, bucket: number, open: number, high: number, low: number, close: number, volume: number, volumeTokens: string, swaps: number): void {
  c.timestamp.push(new Date(bucket).toISOString());
  c.open.push(open);
  c.high.push(high);
  c.low.push(low);
  c.close.push(close);
  c.volume.push(volume);
  c.volumeTokens.push(volumeTokens);
  c.swaps.push(swaps);
}
