import type { OrderColumn, SortDirection, TokenRow } from '../../db/index.ts';
import { compareDecimals } from './compareDecimals.ts';

type Key = string | number | boolean | Decimal | null;
/** A decimal string with its nearest double: doubles decide, the exact string breaks their ties. */
type Decimal = { approx: number; exact: string };
type Column = { key: (row: SortRow) => Key; compare: (a: never, b: never) => number };

/**
 * What the orderings and the isSecure filter read of a token, held by the catalogue beside its
 * serialised JSON: times as epoch ms instead of Date objects, and no checksum address or logo
 * (both only in the JSON). About half the heap of a full TokenRow (~21 → ~11 MB per 24,000).
 */
export type SortRow = Omit<TokenRow, 'checksumAddress' | 'logo' | 'priceUpdatedAt' | 'createdAt' | 'updatedAt'> & {
  priceUpdatedAt: number | null;
  createdAt: number;
  updatedAt: number;
};

export function toSortRow(row: TokenRow): SortRow {
  return {
    address: row.address, name: row.name, symbol: row.symbol, decimals: row.decimals,
    totalSupply: row.totalSupply, currentPrice: row.currentPrice,
    priceUpdatedAt: row.priceUpdatedAt === null ? null : row.priceUpdatedAt.getTime(),
    last24hVariation: row.last24hVariation, fdv: row.fdv, sells: row.sells, buys: row.buys, swaps: row.swaps,
    isPossibleSpam: row.isPossibleSpam, isSecure: row.isSecure,
    createdAt: row.createdAt.getTime(), updatedAt: row.updatedAt.getTime(),
  };
}

const byNumber = (a: number, b: number) => a - b;
const byBoolean = (a: boolean, b: boolean) => Number(a) - Number(b);
// Code point order after ASCII lower-casing: what `lower(x) COLLATE "C"` does in a C-locale database.
const byText = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
// JS compares UTF-16 code units; fixed-width base-36 code points make it compare code points.
const codePointKey = (s: string) => [...asciiLower(s)].map((c) => c.codePointAt(0)!.toString(36).padStart(4, '0')).join('');
const abs = (d: string | null) => (d === null ? null : d.replace(/^-/, ''));
const decimal = (d: string | null): Decimal | null => (d === null ? null : { approx: Number(d), exact: d });
// (Infinity - Infinity is NaN, which also falls through to the exact comparison)
const byDecimal = (a: Decimal, b: Decimal) => a.approx - b.approx || compareDecimals(a.exact, b.exact);

/** The same orderings as the SQL in db/tokens/orderColumns.ts, for the in-memory catalogue. */
const columns: Record<OrderColumn, Column> = {
  name: { key: (r) => codePointKey(r.name), compare: byText },
  symbol: { key: (r) => codePointKey(r.symbol), compare: byText },
  decimals: { key: (r) => r.decimals, compare: byNumber },
  contractAddress: { key: (r) => r.address, compare: byText },
  currentPrice: { key: (r) => decimal(r.currentPrice), compare: byDecimal },
  priceUpdatedAt: { key: (r) => r.priceUpdatedAt, compare: byNumber },
  createdAt: { key: (r) => r.createdAt, compare: byNumber },
  updatedAt: { key: (r) => r.updatedAt, compare: byNumber },
  last24hVariation: { key: (r) => decimal(r.last24hVariation), compare: byDecimal },
  last24hVariationAbsolute: { key: (r) => decimal(abs(r.last24hVariation)), compare: byDecimal },
  sells: { key: (r) => r.sells, compare: byNumber },
  buys: { key: (r) => r.buys, compare: byNumber },
  swaps: { key: (r) => r.swaps, compare: byNumber },
  isPossibleSpam: { key: (r) => r.isPossibleSpam, compare: byBoolean },
  totalSupply: { key: (r) => decimal(r.totalSupply), compare: byDecimal },
  fdv: { key: (r) => decimal(r.fdv), compare: byDecimal },
};

export type Keyed<T> = { item: T; key: Key; address: string };

/** Nulls last in both directions, then the column, then the address ascending. */
function keyedComparator(order: OrderColumn, sort: SortDirection): (a: Keyed<unknown>, b: Keyed<unknown>) => number {
  const cmp = columns[order].compare as (a: Key, b: Key) => number;
  const sign = sort === 'asc' ? 1 : -1;
  return (a, b) => {
    if (a.key === null || b.key === null) {
      if (a.key !== b.key) return a.key === null ? 1 : -1;
    } else {
      const c = cmp(a.key, b.key);
      if (c !== 0) return sign * c;
    }
    return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
  };
}

/**
 * Sorts by a column with nulls last in both directions and the address ascending as the
 * tiebreak. Keys are computed once per item, not per comparison.
 */
export function sortBy<T extends { row: SortRow }>(items: readonly T[], order: OrderColumn, sort: SortDirection): T[] {
  const { key } = columns[order];
  const keyed: Keyed<T>[] = items.map((item) => ({ item, key: key(item.row), address: item.row.address }));
  keyed.sort(keyedComparator(order, sort));
  return keyed.map((k) => k.item);
}

/** Where `item` is or would go in `list` (sorted by sortBy with the same order): log2(n) probes. */
function lowerBound<T extends { row: SortRow }>(list: readonly T[], item: T, order: OrderColumn, sort: SortDirection): number {
  const { key } = columns[order];
  const compare = keyedComparator(order, sort);
  const probe: Keyed<T> = { item, key: key(item.row), address: item.row.address };
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const other = list[mid]!;
    if (compare({ item: other, key: key(other.row), address: other.row.address }, probe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Puts `item` where sortBy would have put it, without sorting again. */
export function insertSorted<T extends { row: SortRow }>(list: T[], item: T, order: OrderColumn, sort: SortDirection): void {
  list.splice(lowerBound(list, item, order, sort), 0, item);
}

/** Takes `item` (the very object, found by its own keys) out of `list`; false if it is not there. */
export function removeSorted<T extends { row: SortRow }>(list: T[], item: T, order: OrderColumn, sort: SortDirection): boolean {
  const at = lowerBound(list, item, order, sort);
  if (list[at] !== item) return false;
  list.splice(at, 1);
  return true;
}
