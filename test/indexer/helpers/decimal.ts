// Test-side exact decimal helpers (independent of the indexer's own).
export const S = 10n ** 36n;

export function toScaled(value: string | null | undefined): bigint {
  if (value === null || value === undefined) throw new Error('expected a value, got null');
  const negative = value.startsWith('-');
  const [w = '0', f = ''] = value.replace('-', '').split('.');
  const v = BigInt(w) * S + BigInt(f.padEnd(36, '0').slice(0, 36));
  return negative ? -v : v;
}

/** |a − b| ≤ b × 10^-24 plus 10^-fractionDigits (values stored with that many fractional digits). */
export function closeTo(actual: bigint, expected: bigint, fractionDigits = 30): boolean {
  const diff = actual > expected ? actual - expected : expected - actual;
  const abs = expected < 0n ? -expected : expected;
  return diff <= abs / 10n ** 24n + 10n ** BigInt(36 - fractionDigits);
}

export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}
