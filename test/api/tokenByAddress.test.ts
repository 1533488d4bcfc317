import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getAddress } from 'ethers';
import request from 'supertest';
import { upsertTokens, type Database } from '../../src/db/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { BASE_TIME } from '../helpers/tokenFixtures.ts';

const ADDRESS = '0xe5d7c2a44ffddf6b295a15c148167daaaf5cf34f';

for (const target of testDatabases) {
  describe(`GET /tokens/{contractAddress} on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
      await upsertTokens(db, [
        {
          address: ADDRESS,
          name: 'Wrapped Ether',
          symbol: 'WETH',
          decimals: 18,
          totalSupply: 2n ** 70n + 1n,
          currentPrice: '3012.123456789012345678',
          priceUpdatedAt: BASE_TIME,
          last24hVariation: '-1.25',
          fdv: '3556.5',
          isSecure: true,
          firstSeenAt: BASE_TIME,
          at: BASE_TIME,
        },
      ]);
    });
    after(() => db.close());

    for (const [label, address] of [
      ['lower case', ADDRESS],
      ['upper case', `0x${ADDRESS.slice(2).toUpperCase()}`],
      ['checksummed', getAddress(ADDRESS)],
    ]) {
      it(`finds the token by its ${label} address`, async () => {
        const res = await request(testApp(db)).get(`/tokens/${address}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.contractAddress, getAddress(ADDRESS));
        assert.equal(res.body.info.totalSupply, (2n ** 70n + 1n).toString());
        assert.equal(res.body.currentPrice, Number('3012.123456789012345678'));
        assert.equal(res.body.last24hVariation, -1.25);
        assert.equal(res.body.priceUpdatedAt, BASE_TIME.toISOString());
      });
    }

    it('answers 404 problem+json for an unknown token', async () => {
      const res = await request(testApp(db)).get('/tokens/0x0000000000000000000000000000000000000001');
      assert.equal(res.status, 404);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.match(res.body.detail, /0x0000000000000000000000000000000000000001/);
    });

    for (const bad of ['0x123', 'e5d7c2a44ffddf6b295a15c148167daaaf5cf34f00', `${ADDRESS}00`, '0xg5d7c2a44ffddf6b295a15c148167daaaf5cf34f']) {
      it(`answers 400 naming contractAddress for ${bad}`, async () => {
        const res = await request(testApp(db)).get(`/tokens/${bad}`);
        assert.equal(res.status, 400);
        assert.equal(res.body.errors[0].field, 'contractAddress');
        assert.equal(res.body.errors[0].in, 'path');
      });
    }
  });
}
