// Candles recomputed from first principles, for tests: the token's price changes (the series
// currentPrice follows) and its swaps, over every interval of a range, with no roll-up state. Its
// output has the API's shape (CandleSeries.candles) so a test compares the two whole.

import type { components } from '../../generated/openapi/types.ts';

export type OraclePrice = { blockNumber: number; price: string | null; at: number };
export type OracleSwap = { blockNumber: number; at: number; amount: bigint; valueUsd: string | null };
/** The API's candle columns (spec: Candles), so the oracle cannot drift from the answer's shape. */
export type OracleCandles = components['schemas']['Candles'];

const SCALE_DIGITS = 36;
const exact = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 10n ** BigInt(SCALE_DIGITS) + BigInt(fraction.slice(0, SCALE_DIGITS).padEnd(SCALE_DIGITS, '0'));
};
/** As the API prints an exact decimal: the double its text parses to. */
const number = (scaled: bigint) => {
  const digits = scaled.toString().padStart(SCALE_DIGITS + 1, '0');
  return Number(`${digits.slice(0, -SCALE_DIGITS)}.${digits.slice(-SCALE_DIGITS)}`);
};

/** Whole tokens, exact, without trailing zeros. */
export function wholeTokens(baseUnits: bigint, decimals: number): string {
  if (decimals === 0) return baseUnits.toString();
  const digits = baseUnits.toString().padStart(decimals + 1, '0');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return digits.slice(0, -decimals) + (fraction ? `.${fraction}` : '');
}

/**
 * For each interval start from `from` to `to` (ms, both aligned to `seconds`): the price in force
 * at its start (the last non-null change before it; the interval's first change when there is
 * none), the extremes of every price in force during it, the price at its end, and the sums of
 * its swaps. Intervals before the first price are left out.
 */
export function oracleCandles(prices: readonly OraclePrice[], swaps: readonly OracleSwap[], seconds: number, from: number, to: number, decimals: number): OracleCandles {
  const step = seconds * 1000;
  const series = prices.filter((p) => p.price !== null).sort((a, b) => a.blockNumber - b.blockNumber);
  const out: OracleCandles = { timestamp: [], open: [], high: [], low: [], close: [], volume: [], volumeTokens: [], swaps: [] };
  for (let start = from; start <= to; start += step) {
    const end = start + step;
    const before = series.filter((p) => p.at < start).at(-1);
    const during = series.filter((p) => p.at >= start && p.at < end);
    const inForce = [...(before ? [before] : []), ...during].map((p) => exact(p.price!));
    if (inForce.length === 0) continue;
    const mine = swaps.filter((s) => s.at >= start && s.at < end);
    out.timestamp.push(new Date(start).toISOString());
    out.open.push(number(inForce[0]!));
    out.high.push(number(inForce.reduce((a, b) => (a > b ? a : b))));
    out.low.push(number(inForce.reduce((a, b) => (a < b ? a : b))));
    out.close.push(number(inForce.at(-1)!));
    out.volume.push(number(mine.reduce((sum, s) => sum + (s.valueUsd === null ? 0n : exact(s.valueUsd)), 0n)));
    out.volumeTokens.push(wholeTokens(mine.reduce((sum, s) => sum + s.amount, 0n), decimals));
    out.swaps.push(mine.length);
  }
  return out;
}
