import type { CandleRead } from '../../db/index.ts';
import { jsonNumber } from '../jsonNumber.ts';
import { formatTokenUnits } from '../supply/formatTokenUnits.ts';
import type { CandleRange } from './resolveCandleRange.ts';

/**
 * The CandleSeries JSON of a range from the stored candles (the first row may be the last priced
 * one before the range, whose close carries in): every interval from the first priced one to the
 * end of the range, an interval without a row carrying the previous close with volume 0.
 * Intervals before the token's first price (or rows of swaps before it) are left out.
 */
export function serialiseCandles(read: CandleRead, range: CandleRange): string {
  const step = range.seconds * 1000;
  const columns = { timestamp: [] as string[], open: [] as string[], high: [] as string[], low: [] as string[], close: [] as string[], volume: [] as string[], volumeTokens: [] as string[], swaps: [] as number[] };
  const { rows } = read;
  let i = 0;
  let carried: string | null = null;
  while (i < rows.length && rows[i]!.bucket < range.from) carried = jsonNumber(rows[i++]!.close!);
  for (let bucket = range.from; bucket <= range.to; bucket += step) {
    const row = i < rows.length && rows[i]!.bucket === bucket ? rows[i++]! : undefined;
    if (row && row.close !== null) {
      const close = jsonNumber(row.close);
      columns.open.push(jsonNumber(row.open!));
      columns.high.push(jsonNumber(row.high!));
      columns.low.push(jsonNumber(row.low!));
      columns.close.push(close);
      columns.volume.push(jsonNumber(row.volumeUsd));
      columns.volumeTokens.push(JSON.stringify(formatTokenUnits(BigInt(row.volume), read.decimals)));
      columns.swaps.push(row.swaps);
      carried = close;
    } else if (carried !== null) {
      columns.open.push(carried);
      columns.high.push(carried);
      columns.low.push(carried);
      columns.close.push(carried);
      columns.volume.push('0');
      columns.volumeTokens.push('"0"');
      columns.swaps.push(0);
    } else continue;
    columns.timestamp.push(`"${new Date(bucket).toISOString()}"`);
  }
  const list = (values: (string | number)[]) => `[${values.join(',')}]`;
  return `{"contractAddress":${JSON.stringify(read.checksumAddress)},"interval":"${range.interval}",`
    + `"from":"${new Date(range.from).toISOString()}","to":"${new Date(range.to).toISOString()}",`
    + `"candles":{"timestamp":${list(columns.timestamp)},"open":${list(columns.open)},"high":${list(columns.high)},"low":${list(columns.low)},`
    + `"close":${list(columns.close)},"volume":${list(columns.volume)},"volumeTokens":${list(columns.volumeTokens)},"swaps":${list(columns.swaps)}}}`;
}
