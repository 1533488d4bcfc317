import type { TokenRow } from '../../db/index.ts';
import type { OrderColumn, SortDirection } from '../types.ts';
import { compareDecimals } from './compareDecimals.ts';

/**
 * How a column orders: text by its key string; numbers by value; decimals (exact strings) by
 * their nearest doubles, the exact strings breaking only the doubles' ties. Nulls go last in
 * both directions, then the address ascending breaks every tie.
 */
type Column =
  | { kind: 'text'; key: (row: SortRow) => string }
  | { kind: 'number'; value: (row: SortRow) => number | null }
  | { kind: 'decimal'; text: (row: SortRow) => string | null; absolute?: boolean };

/**
 * What the orderings and the isSecure filter read of a token, held by the catalogue beside its
 * serialised JSON: times as epoch ms instead of Date objects, and no checksum address or logo
 * (both only in the JSON): about half the heap of a full TokenRow (docs/performance.md). Of the
 * price-change windows only the ordered ones (1 h, 7 d; 24 h is last24hVariation) are held.
 */
export type SortRow = Omit<
  TokenRow,
  | 'checksumAddress' | 'logo' | 'priceUpdatedAt' | 'marketUpdatedAt' | 'createdAt' | 'updatedAt' | 'priceSource' | 'priceSourceKind'
  | 'spamReasons' | 'securityReasons' | 'circulatingSupply' | 'priceChange6h'
> & {
  priceUpdatedAt: number | null;
  marketUpdatedAt: number | null;
  createdAt: number;
  updatedAt: number;
};

export function toSortRow(row: TokenRow): SortRow {
  return {
    address: row.address, name: row.name, symbol: row.symbol, decimals: row.decimals,
    totalSupply: row.totalSupply, currentPrice: row.currentPrice,
    priceUpdatedAt: row.priceUpdatedAt === null ? null : row.priceUpdatedAt.getTime(),
    marketUpdatedAt: row.marketUpdatedAt === null ? null : row.marketUpdatedAt.getTime(),
    last24hVariation: row.last24hVariation, fdv: row.fdv, sells: row.sells, buys: row.buys, swaps: row.swaps,
    isPossibleSpam: row.isPossibleSpam, isSecure: row.isSecure, securityScore: row.securityScore, liquidity: row.liquidity, volume24h: row.volume24h,
    createdAt: row.createdAt.getTime(), updatedAt: row.updatedAt.getTime(),
    marketCap: row.marketCap,
    priceChange1h: row.priceChange1h, priceChange7d: row.priceChange7d,
  };
}

/** True when two sort rows hold the same values: every ordering and filter places them alike. */
export function sameSortRow(a: SortRow, b: SortRow): boolean {
  for (const key of Object.keys(a) as (keyof SortRow)[]) if (a[key] !== b[key]) return false;
  return true;
}

// Code point order after lower-casing each code point: what `lower(x) COLLATE "C"` does in a
// UTF-8 database (ctype C.UTF-8 or en_US.UTF-8: towlower per character, so 'İ' → 'i' where JS
// gives 'i̇'; the first code point of JS's mapping is the same). JS compares UTF-16 code units:
// fixed-width base-36 code points make it compare code points.
const lowerCodePoint = (c: string) => (c >= 'A' && c <= 'Z') || c > '\x7f' ? c.toLowerCase().codePointAt(0)! : c.codePointAt(0)!;
const codePointKey = (s: string) => Array.from(s, (c) => lowerCodePoint(c).toString(36).padStart(4, '0')).join('');

/** The same orderings as the SQL in db/tokens/orderColumns.ts, for the in-memory catalogue. */
const columns: Record<OrderColumn, Column> = {
  name: { kind: 'text', key: (r) => codePointKey(r.name) },
  symbol: { kind: 'text', key: (r) => codePointKey(r.symbol) },
  decimals: { kind: 'number', value: (r) => r.decimals },
  contractAddress: { kind: 'text', key: (r) => r.address },
  currentPrice: { kind: 'decimal', text: (r) => r.currentPrice },
  priceUpdatedAt: { kind: 'number', value: (r) => r.priceUpdatedAt },
  marketUpdatedAt: { kind: 'number', value: (r) => r.marketUpdatedAt },
  createdAt: { kind: 'number', value: (r) => r.createdAt },
  updatedAt: { kind: 'number', value: (r) => r.updatedAt },
  last24hVariation: { kind: 'decimal', text: (r) => r.last24hVariation },
  last24hVariationAbsolute: { kind: 'decimal', text: (r) => r.last24hVariation, absolute: true },
  priceChange1h: { kind: 'decimal', text: (r) => r.priceChange1h },
  priceChange7d: { kind: 'decimal', text: (r) => r.priceChange7d },
  sells: { kind: 'number', value: (r) => r.sells },
  buys: { kind: 'number', value: (r) => r.buys },
  swaps: { kind: 'number', value: (r) => r.swaps },
  isPossibleSpam: { kind: 'number', value: (r) => Number(r.isPossibleSpam) },
  totalSupply: { kind: 'decimal', text: (r) => r.totalSupply },
  fdv: { kind: 'decimal', text: (r) => r.fdv },
  liquidity: { kind: 'decimal', text: (r) => r.liquidity },
  volume24h: { kind: 'decimal', text: (r) => r.volume24h },
  marketCap: { kind: 'decimal', text: (r) => r.marketCap },
  securityScore: { kind: 'number', value: (r) => r.securityScore },
};

const byAddress = (a: SortRow, b: SortRow) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);
const exactOf = (text: string, absolute: boolean | undefined) => (absolute ? text.replace(/^-/, '') : text);
const approxOf = (text: string, absolute: boolean | undefined) => (absolute ? Math.abs(Number(text)) : Number(text));

/** A numeric or decimal column's value as its nearest double, null when the value is null. */
function approxKey(column: Exclude<Column, { kind: 'text' }>, row: SortRow): number | null {
  if (column.kind === 'number') return column.value(row);
  const text = column.text(row);
  return text === null ? null : approxOf(text, column.absolute);
}

/** Compares two rows by `order` (keys computed per call: for a few binary-search probes). */
function rowComparator(order: OrderColumn, sort: SortDirection): (a: SortRow, b: SortRow) => number {
  const column = columns[order];
  const sign = sort === 'asc' ? 1 : -1;
  return (a, b) => {
    let c = 0;
    if (column.kind === 'text') {
      const x = column.key(a);
      const y = column.key(b);
      c = x === y ? 0 : x < y ? -1 : 1;
    } else {
      const x = column.kind === 'number' ? column.value(a) : column.text(a);
      const y = column.kind === 'number' ? column.value(b) : column.text(b);
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else if (column.kind === 'number') {
        c = (x as number) - (y as number);
      } else {
        // (Infinity - Infinity is NaN, which also falls through to the exact comparison)
        c = approxOf(x as string, column.absolute) - approxOf(y as string, column.absolute);
        if (c === 0 || c !== c) c = compareDecimals(exactOf(x as string, column.absolute), exactOf(y as string, column.absolute));
      }
    }
    return c !== 0 ? sign * c : byAddress(a, b);
  };
}

/**
 * The nearest double of every numeric and decimal column, in one dense array per column indexed
 * by a token's slot, with a null flag beside each (a decimal may itself be NaN). Sorting reads
 * these instead of each token's row and parsing its decimal strings: for 100 random tokens out
 * of 24,000, the rows and strings were two cache misses and a parse per token.
 */
export type ApproxKeys = {
  /** Records a token's keys under its slot (slots are small, dense integers). */
  set(slot: number, row: SortRow): void;
  /** The column's values and null flags, undefined for text columns. */
  of(order: OrderColumn): ColumnKeys | undefined;
  /**
   * The address's first 52 bits (NaN if it is not 0x and 40 lower-case hex digits), which order
   * like the address itself: ties are broken without reading each row's address.
   */
  addressPrefix(): Float64Array;
};

/** A column's nearest doubles by slot, and 1 where the value is null (a decimal may be NaN). */
export type ColumnKeys = { values: Float64Array; nulls: Uint8Array };

const HEX_ADDRESS = /^0x[0-9a-f]{40}$/;

export function createApproxKeys(): ApproxKeys {
  const numeric = (Object.keys(columns) as OrderColumn[]).filter((c) => columns[c].kind !== 'text');
  let capacity = 1024;
  const arrays = new Map<OrderColumn, ColumnKeys>(numeric.map((c) => [c, { values: new Float64Array(capacity), nulls: new Uint8Array(capacity) }]));
  let prefixes = new Float64Array(capacity);
  const grow = <A extends Float64Array | Uint8Array>(old: A, make: (n: number) => A): A => {
    const grown = make(capacity);
    grown.set(old);
    return grown;
  };
  const doubles = (n: number) => new Float64Array(n);
  return {
    set(slot, row) {
      if (slot >= capacity) {
        capacity = Math.max(capacity * 2, slot + 1);
        for (const [c, old] of arrays) arrays.set(c, { values: grow(old.values, doubles), nulls: grow(old.nulls, (n) => new Uint8Array(n)) });
        prefixes = grow(prefixes, doubles);
      }
      prefixes[slot] = HEX_ADDRESS.test(row.address) ? parseInt(row.address.slice(2, 15), 16) : NaN;
      for (const [c, keys] of arrays) {
        const v = approxKey(columns[c] as Exclude<Column, { kind: 'text' }>, row);
        keys.nulls[slot] = v === null ? 1 : 0;
        if (v !== null) keys.values[slot] = v;
      }
    },
    of: (order) => arrays.get(order),
    addressPrefix: () => prefixes,
  };
}

/**
 * Sorts by a column with nulls last in both directions and the address ascending as the
 * tiebreak. Keys are read once per item into typed arrays (from `keys` when given) and an index
 * array is sorted: no object per item (bursts of orderings raised the peak heap).
 */
export function sortBy<T extends { row: SortRow; slot: number }>(items: readonly T[], order: OrderColumn, sort: SortDirection, keys?: ApproxKeys): T[] {
  const column = columns[order];
  const sign = sort === 'asc' ? 1 : -1;
  const n = items.length;
  const index = new Uint32Array(n);
  for (let i = 0; i < n; i++) index[i] = i;
  const prefix = keys?.addressPrefix();
  const tie = (a: number, b: number) => {
    if (prefix) {
      const d = prefix[items[a]!.slot]! - prefix[items[b]!.slot]!;
      if (d !== 0 && d === d) return d < 0 ? -1 : 1;
    }
    return byAddress(items[a]!.row, items[b]!.row);
  };
  let compare: (a: number, b: number) => number;
  if (column.kind === 'text') {
    const textKeys = items.map((item) => column.key(item.row));
    compare = (a, b) => {
      const x = textKeys[a]!;
      const y = textKeys[b]!;
      return x === y ? tie(a, b) : sign * (x < y ? -1 : 1);
    };
  } else {
    const approx = new Float64Array(n);
    const isNull = new Uint8Array(n);
    const decimal = column.kind === 'decimal' ? column : undefined;
    const known = keys?.of(order);
    for (let i = 0; i < n; i++) {
      if (known) {
        const slot = items[i]!.slot;
        if (known.nulls[slot]) isNull[i] = 1;
        else approx[i] = known.values[slot]!;
        continue;
      }
      const v = approxKey(column, items[i]!.row);
      if (v === null) isNull[i] = 1;
      else approx[i] = v;
    }
    // only reached for non-null keys of a decimal column
    const exact = (i: number) => exactOf(decimal!.text(items[i]!.row)!, decimal!.absolute);
    compare = (a, b) => {
      if (isNull[a] || isNull[b]) return isNull[a] !== isNull[b] ? (isNull[a] ? 1 : -1) : tie(a, b);
      let c = approx[a]! - approx[b]!;
      if (decimal && (c === 0 || c !== c)) c = compareDecimals(exact(a), exact(b));
      return c !== 0 ? sign * c : tie(a, b);
    };
  }
  index.sort(compare);
  return Array.from(index, (i) => items[i]!);
}

/** Where `item` is or would go in `list` (sorted by sortBy with the same order): log2(n) probes. */
function lowerBound<T extends { row: SortRow }>(list: readonly T[], item: T, order: OrderColumn, sort: SortDirection): number {
  const compare = rowComparator(order, sort);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid]!.row, item.row) < 0) lo = mid + 1;
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
