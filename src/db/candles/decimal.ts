// Exact non-negative decimals for the candle roll-up: prices carry up to 36 fraction digits (the
// indexer's fixed point), USD values 18; both fit a bigint scaled by 10^36 without loss.
const DIGITS = 36;
const SCALE = 10n ** BigInt(DIGITS);

/** "123.45" (numeric text, no exponent) → bigint scaled by 10^36; more fraction digits are cut. */
export function toScaled(text: string): bigint {
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  const fraction = dot < 0 ? '' : text.slice(dot + 1, dot + 1 + DIGITS);
  return BigInt(whole || '0') * SCALE + BigInt(fraction.padEnd(DIGITS, '0') || '0');
}

/** Scaled bigint → plain decimal text without trailing zeros. */
export function fromScaled(value: bigint): string {
  const whole = value / SCALE;
  const fraction = (value % SCALE).toString().padStart(DIGITS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}
