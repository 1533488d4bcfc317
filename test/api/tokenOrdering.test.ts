// Ordering by each of the 19 columns both ways: pages joined end to end hold every token once,
// sorted by the column with nulls last and contractAddress as the tiebreak.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import type { Token } from '../../src/readModel/types.ts';
import { upsertTokens, type Database } from '../../src/db/index.ts';
import { orderColumns, type OrderColumn } from '../oracles/index.ts';
import { testApp, type TestApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { makeTokens } from '../helpers/tokenFixtures.ts';

type Value = string | number | bigint | boolean | null;

const valueOf: Record<OrderColumn, (t: Token) => Value> = {
  name: (t) => t.name.toLowerCase(),
  symbol: (t) => t.symbol.toLowerCase(),
  decimals: (t) => t.decimals,
  contractAddress: (t) => t.contractAddress.toLowerCase(),
  currentPrice: (t) => t.currentPrice,
  priceUpdatedAt: (t) => t.priceUpdatedAt,
  marketUpdatedAt: (t) => t.marketUpdatedAt,
  createdAt: (t) => t.createdAt,
  updatedAt: (t) => t.updatedAt,
  last24hVariation: (t) => t.last24hVariation,
  last24hVariationAbsolute: (t) => (t.last24hVariation === null ? null : Math.abs(t.last24hVariation)),
  priceChange1h: (t) => t.info.priceChange.h1,
  priceChange7d: (t) => t.info.priceChange.d7,
  sells: (t) => t.info.sells,
  buys: (t) => t.info.buys,
  swaps: (t) => t.info.swaps,
  isPossibleSpam: (t) => t.isPossibleSpam,
  totalSupply: (t) => BigInt(t.info.totalSupply),
  fdv: (t) => t.info.fdv,
  liquidity: (t) => t.info.liquidity,
  volume24h: (t) => t.info.volume24h,
  marketCap: (t) => t.info.marketCap,
  securityScore: (t) => t.security.score,
};

/** Negative when a comes first: nulls last in both directions, then the address ascending. */
function compare(column: OrderColumn, sort: 'asc' | 'desc', a: Token, b: Token): number {
  const va = valueOf[column](a);
  const vb = valueOf[column](b);
  if (va === null && vb !== null) return 1;
  if (vb === null && va !== null) return -1;
  if (va !== null && vb !== null && va !== vb) {
    const less = va < vb ? -1 : 1;
    return sort === 'asc' ? less : -less;
  }
  return a.contractAddress.toLowerCase() < b.contractAddress.toLowerCase() ? -1 : 1;
}

const TOTAL = 120;
const LIMIT = 7;

for (const target of testDatabases) {
  describe(`GET /tokens ordering on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    // One app for the file's requests, as a server serves them (no test here writes): every
    // request still goes through the lanes, the response cache and Express, each URL once.
    let app: TestApp;
    before(async () => {
      db = await target.open();
      await upsertTokens(db, makeTokens(TOTAL));
      app = testApp(db);
    });
    after(() => db.close());

    for (const column of Object.keys(orderColumns) as OrderColumn[]) {
      for (const sort of ['asc', 'desc'] as const) {
        it(`order=${column}&sort=${sort} across pages`, async () => {
          const seen: Token[] = [];
          const pages = Math.ceil(TOTAL / LIMIT);
          for (let page = 1; page <= pages; page++) {
            const res = await request(app).get(`/tokens?order=${column}&sort=${sort}&limit=${LIMIT}&page=${page}`);
            assert.equal(res.status, 200);
            assert.equal(res.body.meta.totalItemsCount, TOTAL);
            seen.push(...res.body.data);
          }
          const addresses = seen.map((t) => t.contractAddress);
          assert.equal(new Set(addresses).size, TOTAL, 'no token twice, none missing');
          for (let i = 1; i < seen.length; i++) {
            assert.ok(compare(column, sort, seen[i - 1]!, seen[i]!) < 0, `rows ${i - 1} and ${i} out of order`);
          }
          const values = seen.map(valueOf[column]);
          assert.ok(new Set(values.map(String)).size < TOTAL || column === 'contractAddress', 'fixture has ties');
          if (['currentPrice', 'fdv', 'last24hVariation', 'priceUpdatedAt', 'marketCap', 'priceChange1h', 'priceChange7d'].includes(column)) {
            assert.equal(values.at(-1), null, 'nulls come last');
          }
        });
      }
    }

    const metaCases: [string, object, number][] = [
      ['empty result', { addresses: '0x00000000000000000000000000000000000000ff', limit: 10 }, 0],
      ['exact multiple', { limit: 40, page: 3 }, 40],
      ['last partial page', { limit: 50, page: 3 }, 20],
      ['page past the end', { limit: 50, page: 4 }, 0],
      ['far past the end', { limit: 100, page: 1000 }, 0],
    ];
    for (const [name, query, rows] of metaCases) {
      it(`meta for ${name}`, async () => {
        const res = await request(app).get('/tokens').query(query);
        assert.equal(res.status, 200);
        const q = query as { limit: number; page?: number; addresses?: string };
        const total = q.addresses ? 0 : TOTAL;
        assert.deepEqual(res.body.meta, {
          page: q.page ?? 1,
          limit: q.limit,
          totalItemsCount: total,
          pagesCount: Math.ceil(total / q.limit),
        });
        assert.equal(res.body.data.length, rows);
      });
    }

    it('filters by isSecure and addresses together', async () => {
      const all = (await request(app).get('/tokens?limit=100')).body.data as Token[];
      const some = all.slice(0, 30).map((t) => t.contractAddress);
      const res = await request(app).get(`/tokens?isSecure=true&limit=100&addresses=${some.join(',')}`);
      const expected = all.slice(0, 30).filter((t) => t.isSecure).length;
      assert.ok(expected > 0 && expected < 30);
      assert.equal(res.body.meta.totalItemsCount, expected);
      assert.ok(res.body.data.every((t: Token) => t.isSecure && some.includes(t.contractAddress)));
    });
  });
}
