import type { TokenRow } from '../../db/index.ts';
import type { OrderColumn, SortDirection } from '../types.ts';
import { compareDecimals } from './compareDecimals.ts';
import { orderedBits, radixOrder } from './radixOrder.ts';

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
// gives 'i̇'; the first code point of JS's mapping is the same). JS compares UTF-16 code units,
// which order code points alike below U+D800: a key keeps those as one unit and writes a code
// point from U+D800 up as U+D800 and two units (its plane, its low 16 bits), which order above
// every lower one and among themselves as their code points do. ASCII text is its own key,
// lower-cased (no per-character work for what most names are).
const lowerCodePoint = (c: string) => (c >= 'A' && c <= 'Z') || c > '\x7f' ? c.toLowerCase().codePointAt(0)! : c.codePointAt(0)!;
const ASCII = /^[\x00-\x7f]*$/;
const HIGH = String.fromCharCode(0xd800);
export function codePointKey(s: string): string {
  if (ASCII.test(s)) return s.toLowerCase();
  let key = '';
  for (const c of s) {
    const cp = lowerCodePoint(c);
    key += cp < 0xd800 ? String.fromCharCode(cp) : HIGH + String.fromCharCode(cp >>> 16, cp & 0xffff);
  }
  return key;
}

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
      prefixes[slot] = addressPrefix(row.address);
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
    const fast = n >= RADIX_FROM ? radixSorted(items, approx, isNull, sign, compare, prefix, decimal) : undefined;
    if (fast) return fast;
  }
  index.sort(compare);
  return Array.from(index, (i) => items[i]!);
}

/**
 * From how many items a radix sort is used: each of its passes clears 65,536 counts, more than a
 * comparator sort of a page's or a request's hundred tokens costs.
 */
const RADIX_FROM = 2048;

/**
 * sortBy's order for a numeric or decimal column by a radix sort: by the key's double (nulls
 * last), then the address's first 52 bits. Runs the doubles cannot order (decimals equal as
 * doubles but not as written, addresses alike in their first 52 bits) are sorted by `compare`.
 * Undefined when a key is NaN or an address is not 0x and 40 lower-case hex digits: then only
 * the comparator says where they go.
 */
function radixSorted<T extends { row: SortRow; slot: number }>(
  items: readonly T[], approx: Float64Array, isNull: Uint8Array, sign: number, compare: (a: number, b: number) => number,
  prefix: Float64Array | undefined, decimal: Extract<Column, { kind: 'decimal' }> | undefined,
): T[] | undefined {
  const n = items.length;
  const firstHi = new Uint32Array(n);
  const firstLo = new Uint32Array(n);
  const secondHi = new Uint32Array(n);
  const secondLo = new Uint32Array(n);
  const prefixes = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const item = items[i]!;
    const p = prefix ? prefix[item.slot]! : addressPrefix(item.row.address);
    if (p !== p) return undefined;
    prefixes[i] = p;
    secondHi[i] = Math.floor(p / 0x100000000);
    secondLo[i] = p >>> 0;
    if (isNull[i]) {
      firstHi[i] = 0xffffffff; // after every number: nulls last in both directions
      firstLo[i] = 0xffffffff;
      continue;
    }
    const v = approx[i]!;
    if (v !== v) return undefined;
    orderedBits(sign * v, firstHi, firstLo, i);
  }
  const index = radixOrder(firstHi, firstLo, secondHi, secondLo);
  // runs of one double: ordered by address unless the exact decimals or the addresses tell more
  const text = decimal && ((i: number) => decimal.text(items[i]!.row));
  for (let start = 0; start < n; ) {
    const a = index[start]!;
    let end = start + 1;
    let clean = true;
    for (; end < n; end++) {
      const b = index[end]!;
      if (firstHi[b] !== firstHi[a] || firstLo[b] !== firstLo[a]) break;
      const previous = index[end - 1]!;
      if (prefixes[previous]! >= prefixes[b]! || (text && !isNull[b] && text(previous) !== text(b))) clean = false;
    }
    if (!clean) index.subarray(start, end).sort(compare);
    start = end;
  }
  return Array.from(index, (i) => items[i]!);
}

/** An address's first 52 bits, which order like the address (NaN if it is not 0x and 40 lower-case hex digits). */
function addressPrefix(address: string): number {
  return HEX_ADDRESS.test(address) ? parseInt(address.slice(2, 15), 16) : NaN;
}

/** sortBy's order as a comparator of two tokens (keys read per call: for a few binary-search probes). */
export function entryComparator(order: OrderColumn, sort: SortDirection): (a: { row: SortRow }, b: { row: SortRow }) => number {
  const compare = rowComparator(order, sort);
  return (a, b) => compare(a.row, b.row);
}

/**
 * The same tokens in the other direction of `order`, without sorting: the non-null part reversed
 * with each run of equal keys kept in its order (ties stay by address ascending in both
 * directions), the nulls last as they were. Linear in the list; undefined when `list` holds a
 * decimal that is not a number (its comparisons are not a total order, so only a sort defines
 * where it goes). `list` must be exactly as sortBy orders it.
 */
export function reversedOrder<T extends { row: SortRow; slot: number }>(list: readonly T[], order: OrderColumn, keys?: ApproxKeys): T[] | undefined {
  const column = columns[order];
  const n = list.length;
  let sameKey: (a: number, b: number) => boolean;
  let end = n; // where the nulls start
  if (column.kind === 'text') {
    const textKeys = list.map((item) => column.key(item.row));
    sameKey = (a, b) => textKeys[a] === textKeys[b];
  } else {
    const known = keys?.of(order);
    const approx = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const item = list[i]!;
      const v = known ? (known.nulls[item.slot] ? null : known.values[item.slot]!) : approxKey(column, item.row);
      if (v === null) {
        end = i;
        break; // nulls are last
      }
      if (v !== v) return undefined;
      approx[i] = v;
    }
    const decimal = column.kind === 'decimal' ? column : undefined;
    sameKey = decimal
      ? (a, b) => approx[a] === approx[b] && compareDecimals(exactOf(decimal.text(list[a]!.row)!, decimal.absolute), exactOf(decimal.text(list[b]!.row)!, decimal.absolute)) === 0
      : (a, b) => approx[a] === approx[b];
  }
  const out = new Array<T>(n);
  let w = 0;
  for (let runEnd = end; runEnd > 0; ) {
    let runStart = runEnd - 1;
    while (runStart > 0 && sameKey(runStart - 1, runEnd - 1)) runStart--;
    for (let i = runStart; i < runEnd; i++) out[w++] = list[i]!;
    runEnd = runStart;
  }
  for (let i = end; i < n; i++) out[w++] = list[i]!;
  return out;
}

/** True when filtering `list` keeps sortBy's order (no decimal in it that is not a number). */
export function filterKeepsOrder<T extends { row: SortRow; slot: number }>(list: readonly T[], order: OrderColumn, keys?: ApproxKeys): boolean {
  const column = columns[order];
  if (column.kind !== 'decimal') return true;
  const known = keys?.of(order);
  for (const item of list) {
    const v = known ? (known.nulls[item.slot] ? null : known.values[item.slot]!) : approxKey(column, item.row);
    if (v === null) return true; // nulls are last
    if (v !== v) return false;
  }
  return true;
}
