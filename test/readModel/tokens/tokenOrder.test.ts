// sortBy orders alike from the rows and from the dense approximate keys, nulls, NaN decimals,
// ties and spread addresses included, for every column and direction.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApproxKeys, sortBy, type SortRow } from '../../../src/readModel/tokens/tokenOrder.ts';
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
