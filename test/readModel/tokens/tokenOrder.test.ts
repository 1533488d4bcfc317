// sortBy orders alike from the rows and from the dense approximate keys, nulls, NaN decimals,
// ties and spread addresses included, for every column and direction; an ordering reversed or
// filtered without sorting equals the one sorted; text keys order by lower-cased code points.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointKey, createApproxKeys, filterKeepsOrder, reversedOrder, sortBy, type SortRow } from '../../../src/readModel/tokens/tokenOrder.ts';
import { orderColumns, type OrderColumn } from '../../oracles/index.ts';

const decimals = [null, 'NaN', '0', '0', '1.5', '-2.25', '1e400', '10.00000000000000000001', '10.00000000000000000002'];
const row = (i: number): SortRow => ({
  address: `0x${((i * 0x9e3779b1) >>> 0).toString(16).padStart(8, '0')}${'0'.repeat(30)}${(i % 256).toString(16).padStart(2, '0')}`,
  name: `Token ${i % 5}`,
  symbol: `T${i % 3}`,
  decimals: [6, 18, 0][i % 3]!,
  totalSupply: `${(i % 4) * 1000}`,
  currentPrice: decimals[i % decimals.length]!,
  priceUpdatedAt: i % 4 === 0 ? null : 1_700_000_000_000 + (i % 3) * 1000,
  marketUpdatedAt: i % 5 === 0 ? null : 1_700_000_000_000 + (i % 4) * 1000,
  last24hVariation: decimals[(i * 7) % decimals.length]!,
  fdv: decimals[(i * 5) % decimals.length]!,
  sells: i % 4,
  buys: i % 2,
  swaps: i % 6,
  isPossibleSpam: i % 5 === 0,
  isSecure: i % 2 === 0,
  securityScore: (i * 13) % 101,
  liquidity: decimals[(i * 3) % decimals.length]!,
  volume24h: `${(i % 5) * 10}.5`,
  marketCap: decimals[(i * 4) % decimals.length]!,
  priceChange1h: decimals[(i * 2) % decimals.length]!,
  priceChange7d: decimals[(i * 4) % decimals.length]!,
  createdAt: 1_700_000_000_000 + (i % 7),
  updatedAt: 1_700_000_000_000 + (i % 3),
});

describe('sortBy with approximate keys', () => {
  const items = Array.from({ length: 90 }, (_, i) => ({ row: row(i), slot: 89 - i }));
  const keys = createApproxKeys();
  for (const item of items) keys.set(item.slot, item.row);
  for (const order of Object.keys(orderColumns) as OrderColumn[]) {
    for (const sort of ['asc', 'desc'] as const) {
      it(`${order} ${sort}: the same order as from the rows`, () => {
        const fromRows = sortBy(items, order, sort).map((e) => e.row.address);
        assert.deepEqual(sortBy(items, order, sort, keys).map((e) => e.row.address), fromRows);
      });
    }
  }
});

describe('orderings made without sorting', () => {
  // no NaN decimal: every comparison is a total order
  const numbers = [null, '0', '0', '-0', '0.0', '1.5', '1.50', '-2.25', '1e400', '10.00000000000000000001', '10.00000000000000000002'];
  const items = Array.from({ length: 110 }, (_, i) => {
    const r = row(i);
    const pick = (k: number) => numbers[(i * k) % numbers.length]!;
    return {
      row: { ...r, name: ['Alpha', 'alpha', 'ÄLPHA', 'émoji 🚀', 'Émoji 🚀', 'zeta'][i % 6]!, currentPrice: pick(1), last24hVariation: pick(7), fdv: pick(5), liquidity: pick(3), marketCap: pick(4), priceChange1h: pick(2), priceChange7d: pick(9) },
      slot: 109 - i,
    };
  });
  const keys = createApproxKeys();
  for (const item of items) keys.set(item.slot, item.row);
  const addresses = (list: readonly { row: SortRow }[] | undefined) => list?.map((e) => e.row.address);
  for (const order of Object.keys(orderColumns) as OrderColumn[]) {
    it(`${order}: reversed equals sorted the other way, filtered equals the filtered tokens sorted`, () => {
      for (const [sort, other] of [['asc', 'desc'], ['desc', 'asc']] as const) {
        const sorted = sortBy(items, order, sort, keys);
        assert.deepEqual(addresses(reversedOrder(sorted, order, keys)), addresses(sortBy(items, order, other, keys)), `${sort} reversed`);
        assert.deepEqual(addresses(reversedOrder(sorted, order)), addresses(sortBy(items, order, other)), `${sort} reversed, from the rows`);
        assert.ok(filterKeepsOrder(sorted, order, keys));
        const secure = items.filter((e) => e.row.isSecure);
        assert.deepEqual(addresses(sorted.filter((e) => e.row.isSecure)), addresses(sortBy(secure, order, sort, keys)), `${sort} filtered`);
      }
    });
  }

  it('leaves a list with a decimal that is not a number to a sort', () => {
    const withNaN = items.map((e, i) => (i === 7 ? { ...e, row: { ...e.row, fdv: 'NaN' } } : e));
    const sorted = sortBy(withNaN, 'fdv', 'asc');
    assert.equal(reversedOrder(sorted, 'fdv'), undefined);
    assert.equal(filterKeepsOrder(sorted, 'fdv'), false);
    assert.ok(reversedOrder(sortBy(withNaN, 'swaps', 'asc'), 'swaps'));
  });
});

describe('text keys', () => {
  /** The model: lower-cased code points (the first of JS's mapping, as PostgreSQL's towlower), compared in turn. */
  const model = (a: string, b: string) => {
    const cps = (s: string) => Array.from(s, (c) => c.toLowerCase().codePointAt(0)!);
    const x = cps(a);
    const y = cps(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return Math.sign(x.length - y.length);
  };
  it('order like lower-cased code points, astral and private-use characters included', () => {
    const texts = ['', 'a', 'A', 'ab', 'aB', 'a b', 'İstanbul', 'istanbul', 'Ω', 'ω', '\uffee', '\ud83d\ude80', 'a\ud83d\ude80', 'a\uffff', 'a\ue000', 'a\u00e9', 'Z', 'z{', '\u0000', 'ǅ', 'ǆ', '\u{10400}', '\u{10428}'];
    for (const a of texts) {
      for (const b of texts) {
        const x = codePointKey(a);
        const y = codePointKey(b);
        assert.equal(x === y ? 0 : x < y ? -1 : 1, model(a, b), `${JSON.stringify(a)} ${JSON.stringify(b)}`);
      }
    }
  });
});

describe('sortBy against a model of the order', () => {
  /** Exact value of a plain decimal string as a fraction scaled to 10^40 (each text parsed once). */
  const parsed = new Map<string, bigint>();
  const exact = (text: string) => {
    let value = parsed.get(text);
    if (value === undefined) {
      const [int = '0', frac = ''] = text.replace(/^-/, '').split('.');
      value = (BigInt(int || '0') * 10n ** 40n + BigInt(frac.padEnd(40, '0') || '0')) * (text.startsWith('-') ? -1n : 1n);
      parsed.set(text, value);
    }
    return value;
  };
  const modelOrder = (list: { row: SortRow }[], value: (r: SortRow) => string | number | null, sort: 'asc' | 'desc') =>
    [...list].sort((a, b) => {
      const x = value(a.row);
      const y = value(b.row);
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else {
        const c = typeof x === 'number' ? Math.sign(x - (y as number)) : Number(exact(x) > exact(y as string)) - Number(exact(x) < exact(y as string));
        if (c !== 0) return sort === 'asc' ? c : -c;
      }
      return a.row.address < b.row.address ? -1 : a.row.address > b.row.address ? 1 : 0;
    });
  const pool = [null, '0', '-0', '0.0', '1.5', '1.50', '-2.25', '10.00000000000000000001', '10.00000000000000000002', '-10.00000000000000000001', '123456789.123456789'];
  // addresses alike in their first 52 bits (13 hex digits), told apart by the rest
  const address = (i: number) => `0x${(i % 7).toString(16).repeat(13)}${((i * 2654435761) >>> 0).toString(16).padStart(27, '0')}`;
  // past RADIX_FROM (2,048): the radix sort, its runs sorted again where the doubles cannot tell
  const items = Array.from({ length: 2500 }, (_, i) => ({
    row: { ...row(i), address: address(i), fdv: pool[(i * 7) % pool.length]!, liquidity: pool[(i * 3) % pool.length]!, last24hVariation: pool[i % pool.length]!, swaps: i % 5, createdAt: 1_700_000_000_000 - (i % 3) * 0.5 },
    slot: i,
  }));
  const keys = createApproxKeys();
  for (const item of items) keys.set(item.slot, item.row);
  const cases: [OrderColumn, (r: SortRow) => string | number | null][] = [
    ['fdv', (r) => r.fdv], ['liquidity', (r) => r.liquidity], ['last24hVariation', (r) => r.last24hVariation],
    ['last24hVariationAbsolute', (r) => r.last24hVariation?.replace(/^-/, '') ?? null], ['swaps', (r) => r.swaps], ['createdAt', (r) => r.createdAt],
  ];
  for (const [order, value] of cases) {
    for (const sort of ['asc', 'desc'] as const) {
      it(`${order} ${sort}: exact decimals, -0, ties and alike address prefixes placed as the model places them`, () => {
        const expected = modelOrder(items, value, sort).map((e) => e.row.address);
        assert.deepEqual(sortBy(items, order, sort, keys).map((e) => e.row.address), expected);
        assert.deepEqual(sortBy(items, order, sort).map((e) => e.row.address), expected);
      });
    }
  }
});
