// Per-IP limits with IETF RateLimit headers, in process and shared through Redis.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import request from 'supertest';
import { upsertTokens, type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { createSharedHitCounter, type SharedHitCounter } from '../../src/api/limits/createSharedHitCounter.ts';
import { testApp } from '../helpers/testApp.ts';
import { skipWithoutRedis, TEST_REDIS_URL } from '../helpers/services.ts';
import { makeTokens } from '../helpers/tokenFixtures.ts';

describe('rate limiting', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, makeTokens(3));
  });
  after(async () => {
    await db.close();
  });

  it('allows 2 per second, then answers 429 problem+json with Retry-After and RateLimit headers', async () => {
    const app = testApp(db, { rateLimit: { perSecond: 2, perMinute: 60 }, trustProxy: 1 });
    // the first request compiles the spec validators: warm up from another client first
    await request(app).get('/tokens').set('X-Forwarded-For', '192.0.2.1');
    const get = () => request(app).get('/tokens').set('X-Forwarded-For', '192.0.2.2');
    const first = await get();
    assert.equal(first.status, 200);
    assert.match(first.headers['ratelimit-policy'] ?? '', /"per-second"; q=2; w=1/);
    assert.match(first.headers['ratelimit-policy'] ?? '', /"per-minute"; q=60; w=60/);
    assert.match(first.headers.ratelimit ?? '', /"per-second"; r=1; t=\d+/);
    assert.equal((await get()).status, 200);
    const limited = await get();
    assert.equal(limited.status, 429);
    assert.match(limited.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(limited.body.type, 'urn:token-api:problem:rate-limited');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.match(limited.headers.ratelimit ?? '', /"per-second"; r=0/);
  });

  it('never limits health checks and metrics', async () => {
    const app = testApp(db, { rateLimit: { perSecond: 1, perMinute: 1 } });
    for (let i = 0; i < 4; i++) assert.equal((await request(app).get('/healthz')).status, 200);
    assert.equal((await request(app).get('/metrics')).status, 200);
  });

  describe('on Redis', { skip: skipWithoutRedis }, () => {
    let redis: Redis;
    let counter: SharedHitCounter;
    before(async () => {
      redis = new Redis(TEST_REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect().catch((error: unknown) => {
        throw new Error(`TEST_REDIS_URL=${TEST_REDIS_URL} does not answer`, { cause: error });
      });
      counter = createSharedHitCounter({ url: TEST_REDIS_URL! });
      assert.ok(await counter.ready(5000), 'the shared counter reaches Redis');
    });
    after(async () => {
      redis?.disconnect();
      await counter?.stop();
    });

    it('shares the counters of two app instances through Redis', async () => {
      const prefix = randomBytes(4).toString('hex');
      // a distinct client IP per run keeps parallel runs on one Redis apart
      const ip = `10.${parseInt(prefix.slice(0, 2), 16)}.${parseInt(prefix.slice(2, 4), 16)}.${parseInt(prefix.slice(4, 6), 16)}`;
      const options = { rateLimit: { perSecond: 0, perMinute: 3, counter }, trustProxy: 1 };
      const a = testApp(db, options);
      const b = testApp(db, options);
      const send = (app: typeof a) => request(app).get('/tokens').set('X-Forwarded-For', ip);
      assert.equal((await send(a)).status, 200);
      assert.equal((await send(b)).status, 200);
      assert.equal((await send(a)).status, 200);
      const limited = await send(b);
      assert.equal(limited.status, 429, 'the fourth request is over the shared limit of 3');
      assert.match(limited.headers['retry-after'] ?? '', /^\d+$/);
      const other = await request(a).get('/tokens').set('X-Forwarded-For', '192.0.2.77');
      assert.equal(other.status, 200, 'another client is not affected');
      const keys = await redis.keys('ratelimit:per-minute:*');
      assert.ok(keys.length > 0, 'counters live in Redis');
    });
  });
});
