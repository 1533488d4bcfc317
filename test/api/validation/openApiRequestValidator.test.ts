// express-openapi-validator's middleware is made once per process and shared by every app
// (src/api/validation/openApiRequestValidator.ts): a second and a third app validate and route
// exactly as the first, path parameters included (the library hooks them on its first app only).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { upsertTokens, type Database } from '../../../src/db/index.ts';
import { openApiRequestValidatorsMade } from '../../../src/api/validation/openApiRequestValidator.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { testApp } from '../../helpers/testApp.ts';
import { BASE_TIME } from '../../helpers/tokenFixtures.ts';

const ADDRESS = '0xe5d7c2a44ffddf6b295a15c148167daaaf5cf34f';

/** Requests that reach Express itself (its app, not the lanes in front), path parameters in most. */
const TARGETS = [
  `/tokens/${ADDRESS}`,
  `/tokens/0x${ADDRESS.slice(2).toUpperCase()}`,
  `/tokens/${ADDRESS.slice(0, 10)}%41${ADDRESS.slice(11)}`,
  `/tokens/${ADDRESS}/pools?limit=0`,
  `/tokens/not-an-address`,
  `/prices/${ADDRESS}?from=yesterday`,
  `/prices/${ADDRESS}/at?timestamp=1`,
  `/tokens?limit=101`,
  `/tokens?page=2&limit=1`,
];

describe('the request validator shared by the apps of a process', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
    await upsertTokens(db, [{ address: ADDRESS, name: 'Wrapped Ether', symbol: 'WETH', decimals: 18, totalSupply: 10n ** 24n, currentPrice: '3000', priceUpdatedAt: BASE_TIME, isSecure: true, firstSeenAt: BASE_TIME, at: BASE_TIME }]);
  });
  after(() => db.close());

  it('a second and a third app answer every request exactly as the first, and the middleware is made once', async () => {
    const apps = [testApp(db), testApp(db), testApp(db)].map((a) => a.parts.app);
    const answers = [];
    for (const app of apps) {
      const one = [];
      for (const target of TARGETS) {
        const res = await request(app).get(target);
        one.push({ target, status: res.status, type: res.headers['content-type'], body: res.text.replace(/"instance":"[^"]*"/g, '') });
      }
      answers.push(one);
    }
    assert.ok(answers[0]!.some((a) => a.status === 200) && answers[0]!.some((a) => a.status === 400), 'both accepted and refused requests');
    assert.equal(answers[0]![1]!.status, 200, 'an upper-case address is routed and found');
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
    assert.equal(openApiRequestValidatorsMade(), 1);
  });
});
