// Exact decimal arithmetic: values are bigints scaled by 10^36 until they are written as strings.

export const DIGITS = 36;
export const SCALE = 10n ** BigInt(DIGITS);
export const ONE = SCALE;

const pow10Cache = new Map<number, bigint>();
export function pow10(n: number): bigint {
  let v = pow10Cache.get(n);
  if (v === undefined) {
    v = 10n ** BigInt(n);
    pow10Cache.set(n, v);
  }
  return v;
}

/** "123.45" → scaled bigint; throws on anything that is not a plain non-negative decimal. */
export function parseFixed(value: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new Error(`not a decimal: ${value}`);
  const fraction = (match[2] ?? '').slice(0, DIGITS).padEnd(DIGITS, '0');
  return BigInt(match[1]!) * SCALE + BigInt(fraction);
}

/** Scaled bigint → decimal string, truncated toward zero to `digits` fractional digits, no trailing zeros. */
export function formatFixed(value: bigint, digits = DIGITS): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / SCALE;
  const fraction = (abs % SCALE).toString().padStart(DIGITS, '0').slice(0, digits).replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : `${whole}`;
  return negative && text !== '0' ? `-${text}` : text;
}
