// The supply endpoints in the query lane: the same answers as the Express app behind it (both
// checked against the spec), without Express for valid queries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { createTokenCatalog } from '../../src/readModel/tokens/createTokenCatalog.ts';
import { withResponseValidation } from '../../src/api/validation/withResponseValidation.ts';
import { createPriceHistoryStore } from '../../src/readModel/prices/createPriceHistoryStore.ts';
import type { SupplyService } from '../../src/readModel/supply/createSupplyService.ts';
import { recordExpressRequests, responseValidator, testApp } from '../helpers/testApp.ts';
import { startSupplyWorld, supplyApp, type SupplyWorld } from './helpers.ts';
import { openProxiedPostgres } from '../helpers/proxiedPostgres.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/services.ts';

describe('supply in the query lane', () => {
  let world: SupplyWorld;
  let supply: SupplyService;
  let token: string;
  const clock = Date.UTC(2026, 10, 22, 1);
  before(async () => {
    world = await startSupplyWorld();
    token = world.deployment.networkToken.address;
    ({ supply } = supplyApp(world, { cacheSeconds: 60, now: () => clock }));
  });
  after(() => world.stop());

  function build() {
    const { db } = world;
    const catalog = createTokenCatalog({ db, staleMs: 60_000 });
    const prices = createPriceHistoryStore({ db, staleMs: 60_000 });
    const app = testApp(db, { catalog, prices, supply });
    const reachedExpress = recordExpressRequests(app.parts.app);
    return { handler: app, express: withResponseValidation(app.parts.app, responseValidator), reachedExpress, metrics: app.parts.metrics };
  }

  const other = '0x0000000000000000000000000000000000000001';
  const cases = (): [string, boolean][] => [
    [`/supply/total?contractAddress=${token}`, true],
    [`/supply/total?contractAddress=${token.toLowerCase()}&format=raw`, true],
    [`/supply/total?format=json&contractAddress=${token}`, true],
    [`/supply/circulating?contractAddress=${token}`, true],
    [`/supply/circulating?contractAddress=${token}&format=json`, true],
    [`/supply/circulating?contractAddress=${other}&format=json`, true], // 404: not the network token
    [`/supply/total?contractAddress=${token}&format=xml`, false],
    [`/supply/total?contractAddress=0x12`, false],
    ['/supply/total', false],
    [`/supply/total?contractAddress=${token}&format=json&x=1`, true], // x: ignored, named in X-Ignored-Parameters
    [`/supply/total?contractAddress=${token}&format=json&x%5B%5D=1`, true],
    [`/supply/total?contractAddress=${token}&format=json&format[a]=1`, false], // brackets on a declared name: 400
  ];

  it('answers exactly like the full pipeline, and valid queries skip Express', async () => {
    for (const [url, viaLane] of cases()) {
      const lane = build();
      const full = build();
      const expected = await request(full.express).get(url);
      const actual = await request(lane.handler).get(url);
      assert.equal(actual.status, expected.status, url);
      assert.equal(actual.text, expected.text, url);
      for (const name of ['content-type', 'cache-control', 'age', 'x-supply-block-number', 'x-supply-stale', 'vary', 'access-control-allow-origin', 'x-content-type-options', 'x-ignored-parameters']) {
        assert.equal(actual.headers[name], expected.headers[name], `${url}: ${name}`);
      }
      assert.deepEqual(lane.reachedExpress, viaLane ? [] : [`GET ${url}`], url);
      assert.doesNotMatch(await lane.metrics.registry.metrics(), /cache_lookups_total\{cache="response"/, 'supply is never looked up in the response cache');
    }
  });

  // Issue 30 (8): the supply is read from the chain node; while the database does not answer it
  // never waits for the token and price data's check (the old code waited DATA_REFRESH_WAIT_MS,
  // 535 ms instead of 8 ms, on every request whose data was due).
  it('never waits for a data check while the database does not answer', { skip: skipWithoutPostgres }, async () => {
    const WAIT_MS = 1500;
    const pgp = await openProxiedPostgres(TEST_DATABASE_URL!);
    const catalog = createTokenCatalog({ db: pgp.db, staleMs: 50, waitMs: WAIT_MS });
    const prices = createPriceHistoryStore({ db: pgp.db, staleMs: 50, waitMs: WAIT_MS });
    try {
      await catalog.refresh(true);
      await prices.refresh(true);
      const app = testApp(pgp.db, { catalog, prices, supply });
      assert.equal((await request(app).get(`/supply/total?contractAddress=${token}`)).status, 200);
      await pgp.proxy.setMode('partition');
      await new Promise((r) => setTimeout(r, 100)); // the data held is due for a check
      for (const url of [`/supply/total?contractAddress=${token}`, `/supply/circulating?contractAddress=${token}&format=json`]) {
        const started = performance.now();
        const res = await request(app).get(url);
        const ms = performance.now() - started;
        assert.equal(res.status, 200, `${url}: ${res.text}`);
        assert.ok(ms < WAIT_MS / 2, `${url}: answered in ${Math.round(ms)} ms, the data check's wait is ${WAIT_MS} ms`);
        process.stdout.write(`# ${url.split('?')[0]} answered in ${Math.round(ms)} ms while the database is partitioned\n`);
      }
    } finally {
      catalog.stop();
      prices.stop();
      await pgp.close();
    }
  });
});
