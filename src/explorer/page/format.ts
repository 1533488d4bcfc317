// How figures are shown: USD with significant digits for small prices, compact large amounts,
// signed percents, token amounts from base units (exact: BigInt, never through a float).

const usdBig = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 2 });
const usdPlain = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat('en-US');

export const DASH = '—';

/** A USD price: 2 decimals from 1 USD up, 4 significant digits below. */
export function formatPrice(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  if (value >= 1) return usdPlain.format(value);
  if (value === 0) return '$0';
  return `$${value.toPrecision(4)}`;
}

/** A USD amount (market cap, liquidity, volume): compact from 100,000 up. */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  return value >= 100_000 ? usdBig.format(value) : usdPlain.format(value);
}

/** A percent change with its sign. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  return `${value > 0 ? '+' : ''}${value.toFixed(2)} %`;
}

/** up, down or flat: the class of a change. */
export const trend = (value: number | null | undefined) => (value === null || value === undefined || value === 0 ? 'flat' : value > 0 ? 'up' : 'down');

export const formatInteger = (value: number | null | undefined) => (value === null || value === undefined ? DASH : integer.format(value));

/** Base units as whole tokens, exact, with thousands separators: 1234500000 with 6 decimals → 1,234.5. */
export function formatUnits(baseUnits: string | null | undefined, decimals: number): string {
  if (baseUnits === null || baseUnits === undefined) return DASH;
  const negative = baseUnits.startsWith('-');
  const digits = (negative ? baseUnits.slice(1) : baseUnits).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals ? digits.slice(digits.length - decimals).replace(/0+$/, '') : '';
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** 0x1234…abcd */
export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** A time in UTC, to the minute. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
