// The catalogue's pages are put together by hand from the slab (pageAnswer): over generated
// queries, their bytes equal JSON.stringify of the TokenPage the SQL path selects (each token
// as toToken makes it, with its price source's pool), typed as the spec's schema.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadTokenChanges, upsertPools, upsertTokens, type Database, type PoolRow } from '../../../src/db/index.ts';
import { createPrng } from '../../../src/demo/prng.ts';
import { createTokenCatalog, type TokenCatalog } from '../../../src/readModel/tokens/createTokenCatalog.ts';
import { toToken } from '../../../src/readModel/tokens/toToken.ts';
import type { TokenPage } from '../../../src/readModel/types.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { addressOf, makeTokens } from '../../helpers/tokenFixtures.ts';
import { listTokens, orderColumns, type OrderColumn } from '../../oracles/index.ts';

const TOKENS = 90;
const QUERIES = 120;
const isOrderColumn = (name: string): name is OrderColumn => Object.hasOwn(orderColumns, name);

describe('token pages written from the slab', () => {
  let db: Database;
  let catalog: TokenCatalog;
  let pools: Map<string, PoolRow>;
  before(async () => {
    db = await openPglite();
    // a third of the tokens price from a pool (its JSON embeds the pool); names with non-ASCII text
    await upsertTokens(db, makeTokens(TOKENS).map((t, i) => ({
      ...t,
      ...(i % 3 === 1 ? { priceSource: addressOf(1000 + i) } : {}),
      ...(i % 7 === 0 ? { name: `Tökén ${i} 🚀 "quoted"` } : {}),
    })));
    await upsertPools(db, Array.from({ length: TOKENS }, (_, i) => i).filter((i) => i % 3 === 1).map((i) => ({
      address: addressOf(1000 + i), dex: addressOf(2000), family: 'uniswap-v3', fee: 500, stable: null,
      token0: addressOf(i), token0Symbol: `T${i}`, token1: addressOf((i + 1) % TOKENS), token1Symbol: 'Q',
      liquidity: i % 2 ? `${i}000.5` : null, price: `${i}.25`, createdBlock: i,
      hooks: null, priceSourceExclusion: null, token0Native: false, token1Native: false,
    })));
    pools = new Map((await loadTokenChanges(db)).pools.map((p) => [p.address, p]));
    catalog = createTokenCatalog({ db, staleMs: 60_000 });
    await catalog.refresh(true);
  });
  after(async () => {
    catalog.stop();
    await db.close();
  });

  it(`equal JSON.stringify of the TokenPage (${QUERIES} generated queries)`, async () => {
    const r = createPrng(36);
    const columns = Object.keys(orderColumns).filter(isOrderColumn);
    for (let q = 0; q < QUERIES; q++) {
      const query = {
        page: r.int(1, 4),
        limit: r.pick([1, 7, 20, 50, 100]),
        order: r.pick(columns),
        sort: r.pick(['asc', 'desc'] as const),
        isSecure: r.pick([undefined, true, false]),
        addresses: r.next() < 0.3 ? Array.from({ length: r.int(1, 30) }, () => addressOf(r.int(0, TOKENS + 5))) : undefined,
      };
      const addresses = query.addresses && [...new Set(query.addresses)];
      const { rows, total } = await listTokens(db, { ...query, addresses });
      const expected = {
        data: rows.map((row) => toToken(row, row.priceSource === null ? undefined : pools.get(row.priceSource))),
        meta: { page: query.page, limit: query.limit, totalItemsCount: total, pagesCount: Math.ceil(total / query.limit) },
      } satisfies TokenPage;
      const { bytes } = await catalog.page({ ...query, addresses });
      assert.equal(bytes.toString('utf8'), JSON.stringify(expected), JSON.stringify(query));
    }
  });
});
