// GET /prices/{contractAddress}/candles and /at through the real pipeline (lanes, cache, Express,
// every response checked against the spec), on PGlite and PostgreSQL: hand-computed candles in
// every interval with carried intervals and the current close equal to currentPrice, the price at
// a time or block, and every bad input a 400 naming its field.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { prunePriceChanges, recordSwaps, rollupCandles, upsertTokens, type Database, type SwapWrite } from '../../src/db/index.ts';
import { savePriceChanges, type PriceChange } from '../../src/db/indexer/index.ts';
import { recordExpressRequests, testApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const NOW = new Date('2026-11-21T12:31:00.000Z');
const at = (hhmm: string) => new Date(`2026-11-21T${hhmm}:00.000Z`);
const TOKEN = addressOf(2); // 18 decimals
const UNPRICED = addressOf(6);
const UNKNOWN = '0x00000000000000000000000000000000000000ff';
const e18 = 10n ** 18n;

// Token 2: five price changes in two batches, swaps in two 5-minute intervals.
const prices: PriceChange[] = [
  { token: TOKEN, blockNumber: 100, price: '2', observedAt: at('10:02') },
  { token: TOKEN, blockNumber: 101, price: '2.5', observedAt: at('10:07') },
  { token: TOKEN, blockNumber: 102, price: '1.5', observedAt: at('10:08') },
  { token: TOKEN, blockNumber: 110, price: '3', observedAt: at('11:40') },
  { token: TOKEN, blockNumber: 120, price: '2.75', observedAt: at('12:21') },
];
const swap = (blockNumber: number, when: string, amount: bigint, valueUsd: string | null, token = TOKEN): SwapWrite => ({
  blockNumber, logIndex: 0, token, side: 'buy', txHash: `0x${blockNumber.toString(16).padStart(64, '0')}`, pool: addressOf(40), occurredAt: at(when), amount, valueUsd,
});
const swaps = [swap(101, '10:07', 3n * e18 / 2n, '3.75'), swap(102, '10:08', e18, '1.5'), swap(105, '11:10', 2n * e18, '3')];

for (const target of testDatabases) {
  describe(`candles and price-at API on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
      const tokens = makeTokens(8).map((t) => ({ ...t, currentPrice: null, priceUpdatedAt: null }));
      await upsertTokens(db, [...tokens.filter((t) => t.address !== TOKEN), { ...tokens[2]!, currentPrice: '2.75', priceUpdatedAt: at('12:21') }]);
      for (const [from, to] of [[100, 104], [105, 130]] as const) {
        const p = prices.filter((c) => c.blockNumber >= from && c.blockNumber <= to);
        const s = swaps.filter((c) => c.blockNumber >= from && c.blockNumber <= to);
        await savePriceChanges(db, p);
        await recordSwaps(db, s);
        await rollupCandles(db, p, s);
      }
      // the unpriced token traded: its candles stay absent, as there is no price to carry
      await recordSwaps(db, [swap(103, '10:09', 5n, null, UNPRICED)]);
      await rollupCandles(db, [], [swap(103, '10:09', 5n, null, UNPRICED)]);
    });
    after(() => db?.close());

    const app = () => testApp(db, { now: () => NOW });
    let shared: ReturnType<typeof app> | undefined;
    // One pipeline for the reads (building one compiles the spec's validators); a test that
    // changes the data builds its own.
    const get = (url: string) => request((shared ??= app())).get(url);

    it('hourly by default: the last 100 hours, from the first price on, the last close equal to currentPrice', async () => {
      const res = await get(`/prices/${TOKEN}/candles`).expect(200);
      assert.equal(res.body.interval, '1h');
      assert.equal(res.body.from, '2026-11-17T09:00:00.000Z');
      assert.equal(res.body.to, '2026-11-21T12:00:00.000Z');
      assert.deepEqual(res.body.candles, {
        timestamp: [at('10:00'), at('11:00'), at('12:00')].map((d) => d.toISOString()),
        open: [2, 1.5, 3], high: [2.5, 3, 3], low: [1.5, 1.5, 2.75], close: [1.5, 3, 2.75],
        volume: [5.25, 3, 0], volumeTokens: ['2.5', '2', '0'], swaps: [2, 1, 0],
      });
      const token = await get(`/tokens/${TOKEN}`).expect(200);
      assert.equal(res.body.candles.close.at(-1), token.body.currentPrice);
    });

    it('5-minute candles carry the close through quiet intervals, with volume 0', async () => {
      const res = await get(`/prices/${TOKEN}/candles?interval=5m&from=2026-11-21T10:00:00Z&to=2026-11-21T11:15:00Z`).expect(200);
      const c = res.body.candles;
      assert.equal(c.timestamp.length, 16);
      assert.deepEqual([c.open[0], c.high[0], c.low[0], c.close[0], c.swaps[0]], [2, 2, 2, 2, 0]);
      assert.deepEqual([c.open[1], c.high[1], c.low[1], c.close[1], c.volume[1], c.volumeTokens[1], c.swaps[1]], [2, 2.5, 1.5, 1.5, 5.25, '2.5', 2]);
      assert.ok(c.close.slice(2).every((p: number) => p === 1.5) && c.volume.slice(2, 14).every((v: number) => v === 0));
      assert.deepEqual([c.timestamp[14], c.open[14], c.close[14], c.volume[14], c.volumeTokens[14], c.swaps[14]], [at('11:10').toISOString(), 1.5, 1.5, 3, '2', 1]);
      // the range ends with the interval that contains `to`; a `to` after now is read as now
      const late = await get(`/prices/${TOKEN}/candles?interval=5m&from=2026-11-21T12:16:00Z&to=2027-01-01T00:00:00Z`).expect(200);
      assert.deepEqual(late.body.candles.timestamp, ['12:15', '12:20', '12:25', '12:30'].map((h) => at(h).toISOString()));
      assert.deepEqual(late.body.candles.close, [3, 2.75, 2.75, 2.75]);
      assert.equal(late.body.to, at('12:30').toISOString());
    });

    it('every interval is aligned to UTC', async () => {
      const expected: Record<string, [string[], number[]]> = {
        '15m': [['10:00', '10:15', '10:30', '10:45', '11:00'], [1.5, 1.5, 1.5, 1.5, 1.5]],
        '4h': [['08:00', '12:00'], [3, 2.75]],
        '1d': [['00:00'], [2.75]],
      };
      for (const [interval, [times, closes]] of Object.entries(expected)) {
        const res = await get(`/prices/${TOKEN}/candles?interval=${interval}&from=2026-11-21T10:01:00Z&to=2026-11-21T11:05:00Z`).expect(200);
        const all = await get(`/prices/${TOKEN}/candles?interval=${interval}`).expect(200);
        const c = interval === '15m' ? res.body.candles : all.body.candles;
        assert.deepEqual(c.timestamp, times.map((h) => at(h).toISOString()), interval);
        assert.deepEqual(c.close, closes, interval);
      }
      const day = (await get(`/prices/${TOKEN}/candles?interval=1d`).expect(200)).body.candles;
      assert.deepEqual([day.open[0], day.high[0], day.low[0], day.volume[0], day.volumeTokens[0], day.swaps[0]], [2, 3, 1.5, 8.25, '4.5', 3]);
    });

    it('a known token without a price answers empty columns; an unknown one 404', async () => {
      const res = await get(`/prices/${UNPRICED}/candles?interval=5m`).expect(200);
      assert.deepEqual(res.body.candles.timestamp, []);
      assert.deepEqual(res.body.candles.volumeTokens, []);
      const missing = await get(`/prices/${UNKNOWN}/candles`).expect(404);
      assert.match(missing.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.match(missing.body.detail, /No token/);
    });

    it('the price at a time or block: the last change at or before it, with its time and block', async () => {
      const byTime = await get(`/prices/${TOKEN}/at?time=2026-11-21T11:39:59Z`).expect(200);
      assert.deepEqual(byTime.body, { contractAddress: TOKEN.replace(/^0x/, '0x'), price: 1.5, timestamp: at('10:08').toISOString(), blockNumber: 102 });
      assert.equal((await get(`/prices/${TOKEN}/at?time=2026-11-21T11:40:00Z`).expect(200)).body.price, 3, 'a change at the very time counts');
      assert.deepEqual((await get(`/prices/${TOKEN}/at?block=109`).expect(200)).body, byTime.body);
      assert.equal((await get(`/prices/${TOKEN}/at?block=110`).expect(200)).body.price, 3, 'at the end of the block');
      assert.equal((await get(`/prices/${TOKEN}/at?block=999999`).expect(200)).body.price, 2.75, 'after the last indexed block: the latest');
      const early = await get(`/prices/${TOKEN}/at?time=2026-11-21T10:01:59Z`).expect(404);
      assert.match(early.body.detail, /had no price at 2026-11-21T10:01:59.000Z/);
      assert.match((await get(`/prices/${TOKEN}/at?block=99`).expect(404)).body.detail, /had no price at block 99/);
      assert.match((await get(`/prices/${UNPRICED}/at?block=200`).expect(404)).body.detail, /had no price/);
      assert.match((await get(`/prices/${UNKNOWN}/at?block=200`).expect(404)).body.detail, /No token/);
    });

    // Each bad request: the fields its 400 names, and a fragment of the message.
    const bad: [string, string[], RegExp][] = [
      [`/prices/${TOKEN}/candles?interval=2m`, ['interval'], /allowed values/],
      [`/prices/${TOKEN}/candles?interval=5M`, ['interval'], /allowed values/],
      [`/prices/${TOKEN}/candles?from=yesterday`, ['from'], /must match/],
      [`/prices/${TOKEN}/candles?from=2026-11-21T10:00:00%2B02:00`, ['from'], /must match/],
      [`/prices/${TOKEN}/candles?from=2026-02-30T00:00:00Z`, ['from'], /valid ISO 8601 time/],
      [`/prices/${TOKEN}/candles?to=2026-11-21T24:00:00Z`, ['to'], /valid ISO 8601 time|must match/],
      [`/prices/${TOKEN}/candles?from=2026-11-21T12:00:00Z&to=2026-11-21T11:00:00Z`, ['from'], /must not be after/],
      [`/prices/${TOKEN}/candles?from=2027-01-01T00:00:00Z`, ['from'], /must not be after now/],
      [`/prices/${TOKEN}/candles?interval=5m&from=2026-11-17T00:00:00Z`, ['from'], /asks for 1303 candles of 5m .*at most 1000 per answer/],
      [`/prices/${TOKEN}/candles?interval=1d&from=2023-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`, ['from'], /at most 1000 per answer/],
      [`/prices/0x123/candles`, ['contractAddress'], /must match/],
      [`/prices/${TOKEN}/at`, ['time', 'block'], /give `time` or `block`/],
      [`/prices/${TOKEN}/at?time=2026-11-21T11:00:00Z&block=5`, ['time', 'block'], /not both/],
      [`/prices/${TOKEN}/at?block=-1`, ['block'], /must be >= 0/],
      [`/prices/${TOKEN}/at?block=1.5`, ['block'], /integer/],
      [`/prices/${TOKEN}/at?time=2026-11-21`, ['time'], /must match/],
      [`/prices/${TOKEN}/at?time=2026-13-01T00:00:00Z`, ['time'], /valid ISO 8601 time|must match/],
    ];
    for (const [url, fields, message] of bad) {
      it(`400 naming ${fields.join(' and ')}: ${url.replace(TOKEN, '{token}')}`, async () => {
        const res = await get(url).expect(400);
        assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
        assert.deepEqual([...new Set(res.body.errors.map((e: { field: string }) => e.field))], fields);
        assert.match(res.body.detail, message);
      });
    }

    it('the lane and Express answer alike (a percent-encoded time goes to Express)', async () => {
      const handler = app();
      const reached = recordExpressRequests(handler.parts.app);
      const viaLane = await request(handler).get(`/prices/${TOKEN}/candles?interval=15m&from=2026-11-21T10:00:00Z`).expect(200);
      assert.equal(reached.length, 0, 'answered by the lane');
      const viaExpress = await request(app()).get(`/prices/${TOKEN}/candles?interval=15m&from=2026-11-21T10%3A00%3A00Z`).expect(200);
      assert.deepEqual(viaExpress.body, viaLane.body);
      // ':' as it is, with another parameter percent-encoded (so Express answers): allowed too
      const colons = await request(app()).get(`/prices/${TOKEN}/candles?interval=15%6D&from=2026-11-21T10:00:00Z`).expect(200);
      assert.deepEqual(colons.body, viaLane.body);
      const atLane = await request(handler).get(`/prices/${TOKEN}/at?block=110`).expect(200);
      const atExpress = await request(app()).get(`/prices/${TOKEN}/at?block=1%310`).expect(200);
      assert.deepEqual(atExpress.body, atLane.body);
      assert.equal(reached.length, 0);
    });

    it('a moment before the retention horizon is a 400 naming the earliest time kept', async () => {
      // Prune price changes behind 11:00: the horizon is the last change pruned up to (10:08, block 102).
      await prunePriceChanges(db, at('11:00'), { batchRows: 100, maxPasses: 10 });
      shared = app();
      const res = await get(`/prices/${TOKEN}/at?time=2026-11-21T10:05:00Z`).expect(400);
      assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field), ['time']);
      assert.match(res.body.detail, /before the earliest price kept, 2026-11-21T10:08:00.000Z/);
      const block = await get(`/prices/${TOKEN}/at?block=101`).expect(400);
      assert.match(block.body.detail, /block: is before the earliest price kept, block 102/);
      // from the horizon on, the answers are those of before
      assert.equal((await get(`/prices/${TOKEN}/at?block=102`).expect(200)).body.price, 1.5);
      assert.equal((await get(`/prices/${TOKEN}/at?time=2026-11-21T11:00:00Z`).expect(200)).body.price, 1.5);
    });
  });
}
