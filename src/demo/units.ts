// bigint helpers shared by deployment and simulation (money stays in integer base units).
import { parseUnits } from 'ethers';

/** Whole-token float (a reference amount, not money on chain) to base units. */
export function toUnits(amount: number, decimals: number): bigint {
  if (!(amount >= 0) || !Number.isFinite(amount)) throw new Error(`bad amount ${amount}`);
  return parseUnits(amount.toFixed(Math.min(decimals, 20)), decimals);
}

export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new Error('isqrt of negative');
  if (n < 2n) return n;
  // Newton from a power of two above the root decreases monotonically to floor(sqrt(n)).
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** Positive float as an exact ratio num/den (15 significant digits). */
export function ratio(value: number): { num: bigint; den: bigint } {
  if (!(value > 0) || !Number.isFinite(value)) throw new Error(`bad ratio ${value}`);
  const [mantissa, expPart] = value.toExponential(14).split('e') as [string, string];
  const digits = BigInt(mantissa.replace('.', ''));
  const exp = Number(expPart) - 14;
  return exp >= 0 ? { num: digits * 10n ** BigInt(exp), den: 1n } : { num: digits, den: 10n ** BigInt(-exp) };
}

export const sortTokens = (a: string, b: string): [string, string] => (a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]);
