// The supply endpoints in the query lane: the same answers as the full Express pipeline (with
// response validation), without Express for valid queries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { createTokenCatalog } from '../../src/readModel/tokens/createTokenCatalog.ts';
import { createHttpHandler } from '../../src/api/createHttpHandler.ts';
import { createMetrics } from '../../src/api/observability/createMetrics.ts';
import { createResponseCache } from '../../src/api/cache/responseCache.ts';
import { createPriceHistoryStore } from '../../src/readModel/prices/createPriceHistoryStore.ts';
import type { SupplyService } from '../../src/readModel/supply/createSupplyService.ts';
import { recordExpressRequests, silentLogger } from '../helpers/testApp.ts';
import { startSupplyWorld, supplyApp, type SupplyWorld } from './helpers.ts';

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

  function build(validateResponses: boolean) {
    const { db } = world;
    const catalog = createTokenCatalog({ db, staleMs: 60_000 });
    const prices = createPriceHistoryStore({ db, staleMs: 60_000 });
    const metrics = createMetrics();
    const responseCache = createResponseCache({ version: () => catalog.version(), maxAgeSeconds: 5, metrics });
    const built = createHttpHandler({ db, logger: silentLogger, catalog, prices, supply, responseCache, metrics, validateResponses });
    const reachedExpress = recordExpressRequests(built.app);
    return { handler: built.handler, reachedExpress, metrics };
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
    [`/supply/total?contractAddress=${token}&format=json&x=1`, false],
  ];

  it('answers exactly like the full pipeline, and valid queries skip Express', async () => {
    for (const [url, viaLane] of cases()) {
      const lane = build(false);
      const full = build(true);
      const expected = await request(full.handler).get(url);
      const actual = await request(lane.handler).get(url);
      assert.equal(actual.status, expected.status, url);
      assert.equal(actual.text, expected.text, url);
      for (const name of ['content-type', 'cache-control', 'age', 'x-supply-block-number', 'x-supply-stale', 'vary', 'access-control-allow-origin', 'x-content-type-options']) {
        assert.equal(actual.headers[name], expected.headers[name], `${url}: ${name}`);
      }
      assert.deepEqual(lane.reachedExpress, viaLane ? [] : [`GET ${url}`], url);
      assert.doesNotMatch(await lane.metrics.registry.metrics(), /cache_lookups_total\{cache="response"/, 'supply is never looked up in the response cache');
    }
  });
});
