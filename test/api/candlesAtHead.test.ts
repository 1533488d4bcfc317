// Candles and the price at a time end at the chain's head as indexed (the checkpoint's block),
// not the wall clock: on a chain whose head is hours behind the clock, the last candle of every
// interval is the one that contains the head's time (no flat candles after the last block), a
// `to` after the head is read as the head, a `from` after it is a 400, and `/at` with a time or
// block after the head answers the head's price with `afterHead` naming the head; that answer
// follows the head as it moves, through the lane and Express alike. PGlite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { CANDLE_INTERVALS } from '../../src/config/candleIntervals.ts';
import { bucketOf, rollupCandles, upsertTokens, type Database } from '../../src/db/index.ts';
import { savePriceChanges, writeCheckpoint, type PriceChange } from '../../src/db/indexer/index.ts';
import { recordExpressRequests, testApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const NOW = new Date('2026-11-21T12:31:00.000Z'); // the wall clock, 2 h 44 min after the head
const HEAD = new Date('2026-11-21T09:47:13.000Z');
const HEAD_BLOCK = 125;
const at = (hhmm: string) => new Date(`2026-11-21T${hhmm}:00.000Z`);
const TOKEN = addressOf(2);

const prices: PriceChange[] = [
  { token: TOKEN, blockNumber: 100, price: '2', observedAt: at('08:02') },
  { token: TOKEN, blockNumber: 110, price: '3', observedAt: at('09:20') },
  { token: TOKEN, blockNumber: 120, price: '2.5', observedAt: at('09:46') },
];
const checkpoint = (blockNumber: number, blockTime: Date) =>
  ({ chainId: 59144, blockNumber, blockHash: `0x${blockNumber.toString(16).padStart(64, '0')}`, blockTime });

for (const target of testDatabases) {
  describe(`candles and price-at end at the chain's head on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
      const tokens = makeTokens(4).map((t) => ({ ...t, currentPrice: null, priceUpdatedAt: null }));
      await upsertTokens(db, [...tokens.filter((t) => t.address !== TOKEN), { ...tokens[2]!, currentPrice: '2.5', priceUpdatedAt: at('09:46') }]);
      await savePriceChanges(db, prices);
      await rollupCandles(db, prices, []);
      await writeCheckpoint(db, checkpoint(HEAD_BLOCK, HEAD));
    });
    after(() => db?.close());

    const app = () => testApp(db, { now: () => NOW });

    it('in every interval the last candle is the one that contains the head block\'s time', async () => {
      const handler = app();
      const token = await request(handler).get(`/tokens/${TOKEN}`).expect(200);
      for (const { name, seconds } of CANDLE_INTERVALS) {
        const step = seconds * 1000;
        const headBucket = bucketOf(HEAD.getTime(), seconds);
        for (const query of [`interval=${name}`, `interval=${name}&to=2027-01-01T00:00:00Z`, `interval=${name}&from=2026-11-21T08:00:00Z`]) {
          const res = await request(handler).get(`/prices/${TOKEN}/candles?${query}`).expect(200);
          const last = Date.parse(res.body.candles.timestamp.at(-1));
          assert.ok(last <= HEAD.getTime() && HEAD.getTime() < last + step, `${query}: the last candle ${res.body.candles.timestamp.at(-1)} contains the head`);
          assert.equal(last, headBucket, query);
          assert.equal(res.body.to, new Date(headBucket).toISOString(), `${query}: the range ends at the head's interval`);
          assert.equal(res.body.candles.close.at(-1), token.body.currentPrice, `${query}: the last close is the head's price`);
        }
        const byDefault = await request(handler).get(`/prices/${TOKEN}/candles?interval=${name}`).expect(200);
        assert.equal(byDefault.body.from, new Date(headBucket - 99 * step).toISOString(), `${name}: 100 intervals ending with the head's`);
      }
      // 5-minute candles from the first price to the head: 08:00 … 09:45, 22 of them, none after.
      const fine = await request(handler).get(`/prices/${TOKEN}/candles?interval=5m&from=2026-11-21T08:00:00Z`).expect(200);
      assert.equal(fine.body.candles.timestamp.length, 22);
      assert.deepEqual(fine.body.candles.close.slice(-3), [3, 3, 2.5]);
    });

    it('a `from` after the head\'s interval is a 400 that names the head', async () => {
      const res = await request(app()).get(`/prices/${TOKEN}/candles?interval=5m&from=2026-11-21T09:50:00Z`).expect(400);
      assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['from']);
      assert.match(res.body.detail, /must not be after the chain's head \(the 5m interval starting 2026-11-21T09:45:00.000Z\)/);
      // a range of 1000 candles counted after `to` is cut at the head is accepted
      await request(app()).get(`/prices/${TOKEN}/candles?interval=5m&from=2026-11-18T06:30:00Z&to=2026-11-21T12:00:00Z`).expect(200);
    });

    it('/at after the head answers the head\'s price and says so; at or before the head it does not', async () => {
      const handler = app();
      const afterHead = { blockNumber: HEAD_BLOCK, timestamp: HEAD.toISOString() };
      const latest = { contractAddress: TOKEN, price: 2.5, timestamp: at('09:46').toISOString(), blockNumber: 120 };
      assert.deepEqual((await request(handler).get(`/prices/${TOKEN}/at?time=2026-11-21T12:00:00Z`).expect(200)).body, { ...latest, afterHead });
      assert.deepEqual((await request(handler).get(`/prices/${TOKEN}/at?time=2026-11-21T09:47:14Z`).expect(200)).body, { ...latest, afterHead });
      assert.deepEqual((await request(handler).get(`/prices/${TOKEN}/at?time=2026-11-21T09:47:13Z`).expect(200)).body, latest, 'at the head itself');
      assert.deepEqual((await request(handler).get(`/prices/${TOKEN}/at?block=${HEAD_BLOCK + 1}`).expect(200)).body, { ...latest, afterHead });
      assert.deepEqual((await request(handler).get(`/prices/${TOKEN}/at?block=${HEAD_BLOCK}`).expect(200)).body, latest);
      assert.equal((await request(handler).get(`/prices/${TOKEN}/at?time=2026-11-21T09:30:00Z`).expect(200)).body.afterHead, undefined);
      // Express answers alike (a percent-encoded ':' goes past the lane)
      const reached = recordExpressRequests(handler.parts.app);
      const viaExpress = await request(handler).get(`/prices/${TOKEN}/at?time=2026-11-21T12%3A00%3A00Z`).expect(200);
      assert.equal(reached.length, 1);
      assert.deepEqual(viaExpress.body, { ...latest, afterHead });
    });

    it('an answer after the head follows the head as it moves (the response cache does not keep it)', async () => {
      const handler = app();
      const url = `/prices/${TOKEN}/at?time=2026-11-21T12:00:00Z`;
      for (const _ of [1, 2]) assert.equal((await request(handler).get(url).expect(200)).body.afterHead.blockNumber, HEAD_BLOCK);
      // empty blocks: the head moves past the time asked for without any data changing
      await writeCheckpoint(db, checkpoint(140, at('12:10')));
      try {
        const moved = await request(handler).get(url).expect(200);
        assert.equal(moved.body.afterHead, undefined, 'no longer after the head');
        assert.equal(moved.body.price, 2.5);
        const later = await request(handler).get(`/prices/${TOKEN}/at?time=2026-11-21T12:20:00Z`).expect(200);
        assert.deepEqual(later.body.afterHead, { blockNumber: 140, timestamp: at('12:10').toISOString() });
        // candles (a new pipeline: its answers are kept per data version and five minutes of clock) end at the new head
        const candles = await request(app()).get(`/prices/${TOKEN}/candles?interval=5m`).expect(200);
        assert.equal(candles.body.candles.timestamp.at(-1), at('12:10').toISOString());
        assert.equal(candles.body.candles.close.at(-1), 2.5);
      } finally {
        await writeCheckpoint(db, checkpoint(HEAD_BLOCK, HEAD));
      }
    });
  });
}
