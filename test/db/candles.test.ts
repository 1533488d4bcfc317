// The candle roll-up and retention on PGlite and PostgreSQL, on a seeded trading history written
// as the indexer writes it: candles equal a recount from the price changes and swaps in every
// interval whatever the batches, a rollback rebuilds exactly what a fresh roll-up of the remaining
// blocks gives, and pruning in bounded passes changes no answer at or after its horizon while
// refusing the ones before it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTradeHistory, writeTradeHistory } from '../../bench/lib/tradeHistory.ts';
import { CANDLE_INTERVALS } from '../../src/config/candleIntervals.ts';
import {
  bucketOf, prunePriceChanges, pruneCandles, pruneSwaps, readHorizons, rollbackCandles, rollupCandles, upsertTokens, type Database, type Queryable,
} from '../../src/db/index.ts';
import { ValidationError } from '../../src/errors/index.ts';
import { createCandlesReader } from '../../src/readModel/candles/readCandles.ts';
import { createPriceAtReader } from '../../src/readModel/prices/readPriceAt.ts';
import { writeCandleRows } from '../../src/db/candles/rollupCandles.ts';
import { oracleCandles } from '../oracles/candles.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { makeTokens } from '../helpers/tokenFixtures.ts';

const START = Date.parse('2026-11-20T00:00:07.000Z');
const tokens = makeTokens(3); // decimals 6, 8, 18
const history = buildTradeHistory({
  seed: 22, tokens: tokens.map((t, i) => ({ address: t.address, decimals: t.decimals, price: [1.5, 0.002, 3100][i]! })),
  pools: 3, blocks: 700, firstBlock: 1000, startMs: START, blockMs: 97_000, swapsPerBlock: 0.7, unpricedChance: 0.02,
});
const END = history.blockTime(history.lastBlock).getTime();
const NOW = new Date(END + 60_000);

async function candleRows(db: Database) {
  return db.query(
    `SELECT token, interval_s, bucket, open::text, high::text, low::text, close::text, volume_usd::text, volume::text, swaps, last_block::text
     FROM candles ORDER BY token, interval_s, bucket`,
  );
}

/** Every interval's answer for each token over the whole history (at most 1000 candles each). */
async function answers(db: Database, from = START) {
  const read = createCandlesReader(db);
  const out: Record<string, unknown> = {};
  for (const t of tokens) {
    for (const { name, seconds } of CANDLE_INTERVALS) {
      const first = Math.max(bucketOf(from, seconds), bucketOf(END, seconds) - 999 * seconds * 1000);
      out[`${t.address} ${name}`] = JSON.parse(await read({ contractAddress: t.address, interval: name, from: new Date(first).toISOString() }, NOW));
    }
  }
  return out;
}

for (const target of testDatabases) {
  describe(`candles on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
      await upsertTokens(db, tokens);
      await writeTradeHistory(db, history, 13);
    });
    after(() => db?.close());

    it('equal a recount from the price changes and swaps in every interval', async () => {
      const read = createCandlesReader(db);
      let compared = 0;
      for (const t of tokens) {
        const prices = history.prices.filter((p) => p.token === t.address).map((p) => ({ blockNumber: p.blockNumber, price: p.price, at: p.observedAt.getTime() }));
        const swaps = history.swaps.filter((s) => s.token === t.address).map((s) => ({ ...s, at: s.occurredAt.getTime() }));
        for (const { name, seconds } of CANDLE_INTERVALS) {
          const to = bucketOf(END, seconds);
          const from = Math.max(bucketOf(START, seconds), to - 999 * seconds * 1000);
          const body = JSON.parse(await read({ contractAddress: t.address, interval: name, from: new Date(from).toISOString(), to: new Date(END).toISOString() }, NOW));
          assert.deepEqual(body.candles, oracleCandles(prices, swaps, seconds, from, to, t.decimals), `${t.address} ${name}`);
          compared += body.candles.timestamp.length;
        }
      }
      assert.ok(compared > 900, `${compared} candles compared`);
      const unpriced = history.prices.filter((p) => p.price === null).length;
      assert.ok(unpriced > 0, 'the history has stretches without a price');
    });

    it('are the same whatever the batches: 13 blocks at a time or all at once', async () => {
      const batched = await candleRows(db);
      await db.query(`TRUNCATE candles`);
      await rollupCandles(db, history.prices, history.swaps);
      assert.deepEqual(await candleRows(db), batched);
    });

    it('written a few rows per statement, the same rows as in one statement, replaced rows included', async () => {
      const all = await candleRows(db);
      const stored = (await db.query<Record<string, string | number>>(
        `SELECT token, interval_s, bucket, open::text, high::text, low::text, close::text, volume_usd::text, volume::text, swaps, last_block
         FROM candles ORDER BY token, interval_s, bucket`,
      )).map((r) => ({
        token: String(r.token), intervalSeconds: Number(r.interval_s), bucket: new Date(r.bucket!).getTime(), open: r.open as string | null, high: r.high as string | null,
        low: r.low as string | null, close: r.close as string | null, volumeUsd: String(r.volume_usd), volume: String(r.volume), swaps: Number(r.swaps), lastBlock: Number(r.last_block),
      }));
      assert.ok(stored.length > 50, `${stored.length} rows`);
      await db.query(`TRUNCATE candles`);
      // The first half first with other volumes (to be replaced), then every row 7 per statement.
      await writeCandleRows(db, stored.slice(0, stored.length >> 1).map((r) => ({ ...r, volume: '1', swaps: 0 })), 7);
      await writeCandleRows(db, stored, 7);
      assert.deepEqual(await candleRows(db), all);
    });

    it('a token with one price and no swap in its batch (rolled up in SQL, as at a USD feed round): the rows mergeCandles gives', async () => {
      const all = await candleRows(db);
      // Feed-round-like prices: every 29th block, each token without a row there moves 1.3 % up or down
      // from its last price (written with trailing zeros: stored as mergeCandles stores them).
      const busy = new Set([...history.prices, ...history.swaps].map((r) => `${r.blockNumber} ${r.token}`));
      const rounds: typeof history.prices = [];
      for (let block = history.prices[0]!.blockNumber + 5, k = 0; block <= history.lastBlock; block += 29, k++) {
        for (const t of tokens) {
          const last = history.prices.filter((p) => p.token === t.address && p.blockNumber < block && p.price !== null).at(-1);
          if (!last || busy.has(`${block} ${t.address}`)) continue;
          rounds.push({ ...last, blockNumber: block, observedAt: history.blockTime(block), price: (Number(last.price) * (k % 2 ? 1.013 : 0.987)).toFixed(14) });
        }
      }
      const prices = [...history.prices, ...rounds].sort((a, b) => a.blockNumber - b.blockNumber);
      await db.query(`TRUNCATE candles`);
      await rollupCandles(db, prices, history.swaps); // every token has many prices: mergeCandles alone
      const reference = await candleRows(db);
      await db.query(`TRUNCATE candles`);
      let singles = 0;
      const counting: Queryable = {
        exec: (sql) => db.exec(sql),
        query: (sql, params) => {
          if (/^WITH written AS \(INSERT INTO candles/.test(sql)) singles += (params![0] as string[]).length;
          return db.query(sql, params);
        },
      };
      const blocks = [...new Set([...prices, ...history.swaps].map((r) => r.blockNumber))].sort((a, b) => a - b);
      for (const block of blocks) {
        await rollupCandles(counting, prices.filter((p) => p.blockNumber === block), history.swaps.filter((s) => s.blockNumber === block));
      }
      assert.ok(singles >= rounds.length && rounds.length > 40, `${singles} single prices rolled up in SQL, ${rounds.length} feed-round prices`);
      assert.deepEqual(await candleRows(db), reference);
      assert.ok(reference.length > all.length, 'the rounds opened buckets of their own');
      // back to the history alone for the tests below
      await db.query(`TRUNCATE candles`);
      await rollupCandles(db, history.prices, history.swaps);
      assert.deepEqual(await candleRows(db), all);
    });

    it('a rollback rebuilds what a fresh roll-up of the remaining blocks gives', async () => {
      const all = await candleRows(db);
      for (const [block, withTime] of [[history.lastBlock - 40, true], [history.lastBlock - 90, false]] as const) {
        await db.query(`DELETE FROM swaps WHERE block_number > $1`, [block]);
        await db.query(`DELETE FROM indexer_price_changes WHERE block_number > $1`, [block]);
        await rollbackCandles(db, block, withTime ? history.blockTime(block) : null);
        const rolledBack = await candleRows(db);
        await db.query(`TRUNCATE candles`);
        await rollupCandles(db, history.prices.filter((p) => p.blockNumber <= block), history.swaps.filter((s) => s.blockNumber <= block));
        assert.deepEqual(rolledBack, await candleRows(db), `rollback to ${block}${withTime ? '' : ' (time unknown)'}`);
        assert.ok(rolledBack.length < all.length);
      }
      // back to the whole history for the tests below
      await db.query(`TRUNCATE candles, swaps, indexer_price_changes`);
      await writeTradeHistory(db, history, 50);
      assert.deepEqual(await candleRows(db), all);
    });

    it('pruning in bounded passes keeps every answer at or after its horizon and refuses the ones before', async () => {
      const priceAt = createPriceAtReader(db);
      const before = await answers(db, START + 8 * 3_600_000);
      const blocks = [1200, 1350, 1500, history.lastBlock];
      const times = [9, 10.5, 13].map((h) => new Date(START + h * 3_600_000).toISOString());
      const at = async () => Promise.all([
        ...tokens.flatMap((t) => blocks.map((block) => priceAt({ contractAddress: t.address, block }).then((a) => a.body, (e: Error) => e.message))),
        ...tokens.flatMap((t) => times.map((time) => priceAt({ contractAddress: t.address, time }).then((a) => a.body, (e: Error) => e.message))),
      ]);
      const priceAtBefore = await at();
      const count = async (table: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
      const rows = { candles: await count('candles'), changes: await count('indexer_price_changes'), swaps: await count('swaps') };

      const cutoff = new Date(START + 8 * 3_600_000);
      // Passes of 40 rows, two at a time: the horizon moves forward pass by pass until the cutoff.
      let passes = 0;
      const horizons: number[] = [];
      for (;;) {
        const deleted = await prunePriceChanges(db, cutoff, { batchRows: 40, maxPasses: 2 });
        horizons.push((await readHorizons(db)).get('price_changes')!.keptFromBlock!);
        passes++;
        if (deleted === 0 && horizons.at(-1) === horizons.at(-2)) break;
      }
      assert.ok(passes >= 3, `pruned over ${passes} calls`);
      assert.deepEqual(horizons, [...horizons].sort((a, b) => a - b), 'the horizon only moves forward');
      for (const { name, seconds } of CANDLE_INTERVALS) {
        await pruneCandles(db, { name, seconds }, new Date(bucketOf(cutoff.getTime(), seconds)), { batchRows: 40, maxPasses: 100 });
      }
      assert.ok(await pruneSwaps(db, cutoff, { batchRows: 40, maxPasses: 100 }) > 40);
      assert.equal((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM swaps WHERE occurred_at < $1`, [cutoff.toISOString()]))[0]!.n, 0);

      const horizon = (await readHorizons(db)).get('price_changes')!;
      assert.ok(horizon.keptFrom < cutoff && horizon.keptFrom.getTime() > cutoff.getTime() - 10 * 97_000, `price horizon ${horizon.keptFrom.toISOString()}`);
      // At most one change per token before the horizon: the price carried past it.
      const carried = await db.query<{ token: string; n: number }>(
        `SELECT token, count(*)::int AS n FROM indexer_price_changes WHERE block_number <= $1 GROUP BY token`, [horizon.keptFromBlock]);
      assert.ok(carried.every((c) => c.n === 1), JSON.stringify(carried));
      assert.ok(await count('candles') < rows.candles && await count('indexer_price_changes') < rows.changes && await count('swaps') < rows.swaps);

      // Answers from the horizons on are unchanged; price-at reads before the horizon are refused.
      assert.deepEqual(await answers(db, START + 8 * 3_600_000), before);
      const priceAtAfter = await at();
      for (const [i, answer] of priceAtAfter.entries()) {
        const block = i < tokens.length * blocks.length ? blocks[i % blocks.length] : undefined;
        const time = block === undefined ? times[(i - tokens.length * blocks.length) % times.length] : undefined;
        const refused = block !== undefined ? block < horizon.keptFromBlock! : Date.parse(time!) < horizon.keptFrom.getTime();
        if (refused) assert.match(String(answer), /before the earliest price kept/, `${block ?? time}`);
        else assert.equal(answer, priceAtBefore[i], `${block ?? time}`);
      }
      assert.ok(priceAtAfter.some((a) => /before the earliest price kept/.test(String(a))), 'some reads are before the horizon');

      // A candle range from before an interval's horizon names the earliest candle kept.
      const read = createCandlesReader(db);
      await assert.rejects(
        read({ contractAddress: tokens[1]!.address, interval: '5m', from: new Date(START).toISOString(), to: new Date(START + 3_600_000).toISOString() }, NOW),
        (e: unknown) => e instanceof ValidationError && e.issues[0]?.field === 'from' && /before the earliest 5m candle kept, 2026-11-20T0[67]:\d\d:00.000Z/.test(e.message),
      );
    });
  });
}
