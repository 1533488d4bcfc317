// /metrics reports the price histories a process holds, read from its store at scrape time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMetrics } from '../../../src/api/observability/createMetrics.ts';
import { upsertTokens, type Database } from '../../../src/db/index.ts';
import { createPriceHistoryStore } from '../../../src/readModel/prices/createPriceHistoryStore.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { addressOf, makeTokens } from '../../helpers/tokenFixtures.ts';

describe('price history metrics', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, makeTokens(3));
  });
  after(() => db.close());

  it('counts the histories held and their estimated bytes', async () => {
    const prices = createPriceHistoryStore({ db, staleMs: 60_000, fill: false });
    const metrics = createMetrics({ priceHistories: () => prices.stats() });
    const gauge = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await metrics.registry.metrics())?.[1]);
    assert.equal(await gauge('price_histories_held'), 0);
    await prices.histories([addressOf(1), addressOf(2)]);
    assert.equal(await gauge('price_histories_held'), 2);
    assert.equal(await gauge('price_histories_bytes'), prices.stats().bytes);
    assert.ok(prices.stats().bytes > 0);
    prices.stop();
  });
});
