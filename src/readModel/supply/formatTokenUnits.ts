/**
 * A base-unit integer as an exact decimal in whole tokens: no exponent, no trailing zeros,
 * no trailing dot ("7200999000.5", "0.000001", "42"). Pure bigint, so 2^256 and 255 decimals
 * are as exact as 1 and 0.
 */
export function formatTokenUnits(baseUnits: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new RangeError(`decimals must be an integer from 0 to 255, got ${decimals}`);
  const sign = baseUnits < 0n ? '-' : '';
  const digits = (baseUnits < 0n ? -baseUnits : baseUnits).toString();
  if (decimals === 0) return sign + digits;
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, -decimals);
  const fraction = padded.slice(-decimals).replace(/0+$/, '');
  return sign + whole + (fraction ? `.${fraction}` : '');
}
