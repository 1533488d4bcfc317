// The in-memory price histories answer byte for byte what the SQL path (getPriceHistories) does,
// written as JSON.stringify of the spec's PriceHistory and PriceHistories (the store's serialiser
// is hand-tuned), on fixtures and on generated histories; they follow the database incrementally,
// reload in full after deletions, roll over the hour, and answer the same after pruning.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPriceHistoryStore, historyRange, type PriceHistoryStore } from '../../../src/readModel/prices/createPriceHistoryStore.ts';
import { appendPricePoints, bumpDataGeneration, bumpDataVersion, prunePricePoints, readDataState, upsertTokens, type Database, type PricePointWrite, type Queryable, type SqlParam } from '../../../src/db/index.ts';
import { createPrng } from '../../../src/demo/prng.ts';
import type { PriceHistories, PriceHistory } from '../../../src/readModel/types.ts';
import { getPriceHistories, type PricePointRow } from '../../oracles/index.ts';
import { resetDatabase, testDatabases } from '../../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../../helpers/tokenFixtures.ts';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-21T12:30:00.000Z');
const at = (hoursAgo: number, minute = 0) => new Date(Date.parse('2026-11-21T12:00:00.000Z') - hoursAgo * HOUR + minute * 60_000);
const later = (hours: number) => new Date(NOW.getTime() + hours * HOUR);
const UNKNOWN = '0x00000000000000000000000000000000000000ff';

const historyOf = (points: readonly PricePointRow[]) => points.map((p) => ({ price: Number(p.price), timestamp: p.hour.toISOString() })) satisfies PriceHistory;

/** The SQL path's histories, by checksummed address, as JSON.stringify writes the PriceHistories. */
async function sqlHistories(db: Database, addresses: string[], now: Date): Promise<string> {
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const histories = await getPriceHistories(db, unique, historyRange(now));
  return JSON.stringify(Object.fromEntries([...histories].map(([address, points]) => [address, historyOf(points)])) satisfies PriceHistories);
}

async function sqlHistory(db: Database, address: string, now: Date): Promise<string | undefined> {
  const [points] = [...(await getPriceHistories(db, [address.toLowerCase()], historyRange(now))).values()];
  return points && JSON.stringify(historyOf(points));
}

const TOKENS = 14;
const all = [...Array.from({ length: TOKENS }, (_, i) => addressOf(i)), UNKNOWN];

/** Tokens covering every case of the fill-in; `makeTokens` leaves every third one unpriced. */
async function seed(db: Database): Promise<void> {
  const tokens = makeTokens(TOKENS);
  tokens[5] = { ...tokens[5]!, currentPrice: '1', priceUpdatedAt: at(40) }; // stablecoin: no recorded change
  tokens[8] = { ...tokens[8]!, currentPrice: '3.75', priceUpdatedAt: at(3, 20) }; // priced 3 hours ago, no change
  tokens[11] = { ...tokens[11]!, currentPrice: '0.000000000000000001', priceUpdatedAt: at(20) };
  await upsertTokens(db, tokens);
  const points: PricePointWrite[] = [
    // token 1: 30 hours, two observations per hour (the later wins)
    ...Array.from({ length: 30 }, (_, h) => [
      { token: addressOf(1), price: `${h}.25`, observedAt: at(h, 10), blockNumber: 1000 - h * 2 },
      { token: addressOf(1), price: `${h}.5`, observedAt: at(h, 40), blockNumber: 1001 - h * 2 },
    ]).flat(),
    // token 2: one point this hour; priced since day one, so earlier buckets carry its current price
    { token: addressOf(2), price: '7', observedAt: at(0, 5), blockNumber: 1002 },
    // token 4: one trade 30 hours ago
    { token: addressOf(4), price: '2.5', observedAt: at(30, 1), blockNumber: 900 },
    // token 7: 5 and 2 hours ago
    { token: addressOf(7), price: '10', observedAt: at(5, 1), blockNumber: 990 },
    { token: addressOf(7), price: '11', observedAt: at(2, 1), blockNumber: 995 },
    // token 9: an hour ahead of the wall clock (a node's clock): not shown until its hour comes
    { token: addressOf(9), price: '99', observedAt: at(-2, 3), blockNumber: 1010 },
    { token: addressOf(9), price: '98', observedAt: at(1, 3), blockNumber: 1003 },
    // token 10: every third hour over 60 hours, with tiny and huge prices
    ...Array.from({ length: 20 }, (_, k) => ({
      token: addressOf(10),
      price: k % 2 ? `0.${'0'.repeat(k)}123456789123456789` : `${'9'.repeat(k + 1)}.123456789`,
      observedAt: at(k * 3, 7),
      blockNumber: 800 - k,
    })),
  ];
  await appendPricePoints(db, points);
}

async function assertSameAsSql(db: Database, store: PriceHistoryStore, now: Date, label: string): Promise<void> {
  assert.equal(await store.histories(all, now), await sqlHistories(db, all, now), `${label}: several`);
  for (const address of all) {
    assert.equal(await store.history(address, now), await sqlHistory(db, address, now), `${label}: ${address}`);
  }
}

for (const target of testDatabases) {
  describe(`price history store on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
    });
    after(() => db.close());

    for (const [label, chunkRows] of [
      ['one query per kind', undefined],
      ['pages of 3 tokens', 3],
    ] as const) {
      it(`answers exactly what the SQL path answers, for every case (${label})`, async () => {
        await resetDatabase(db);
        await seed(db);
        const store = createPriceHistoryStore({ db, staleMs: 0, chunkRows });
        for (const now of [NOW, at(0), new Date(at(0).getTime() - 1), later(0.75)]) {
          await assertSameAsSql(db, store, now, now.toISOString());
        }
        // mixed case, duplicates and unknown addresses: keyed by checksum, in address order
        const mixed = [addressOf(7).toUpperCase().replace('0X', '0x'), addressOf(1), addressOf(7), UNKNOWN];
        assert.equal(await store.histories(mixed, NOW), await sqlHistories(db, mixed, NOW));
        assert.equal(await store.histories([UNKNOWN], NOW), '{}');
        assert.equal(await store.history(UNKNOWN, NOW), undefined);
        assert.equal(await store.history(addressOf(0), NOW), '[]');
        store.stop();
      });
    }

    it('answers like SQL when a carried point is older than its packed hour steps reach (over 65,535 hours)', async () => {
      await resetDatabase(db);
      await seed(db);
      await appendPricePoints(db, [
        { token: addressOf(13), price: '4.5', observedAt: at(70_000, 2), blockNumber: 10 },
        { token: addressOf(13), price: '5.5', observedAt: at(3, 2), blockNumber: 1004 },
      ]);
      const store = createPriceHistoryStore({ db, staleMs: 0 });
      await assertSameAsSql(db, store, NOW, 'loaded');
      // incremental: an even older point, then one inside the window
      await appendPricePoints(db, [{ token: addressOf(13), price: '3.5', observedAt: at(80_000, 2), blockNumber: 9 }]);
      await assertSameAsSql(db, store, NOW, 'older point');
      await appendPricePoints(db, [{ token: addressOf(13), price: '6.5', observedAt: at(1, 2), blockNumber: 1008 }]);
      await assertSameAsSql(db, store, NOW, 'newer point');
      for (const hours of [2, 30]) await assertSameAsSql(db, store, later(hours), `+${hours} h`);
      store.stop();
    });

    it('answers like SQL on generated histories (prices of every magnitude, gaps, several points an hour)', async () => {
      await resetDatabase(db);
      const r = createPrng(32);
      const tokens = makeTokens(40).map((t) => (r.next() < 0.3 ? { ...t, currentPrice: `${r.int(1, 9999)}.${r.int(0, 999)}`, priceUpdatedAt: at(r.int(-1, 60), r.int(0, 59)) } : { ...t, at: at(0) }));
      await upsertTokens(db, tokens);
      const price = () => r.pick([`${r.int(0, 99999)}.${r.int(0, 999999)}`, `0.${'0'.repeat(r.int(0, 20))}${r.int(1, 99999)}`, `${'9'.repeat(r.int(1, 30))}.5`, '0']);
      await appendPricePoints(db, tokens.flatMap((t, i) => Array.from({ length: r.int(0, 40) }, (_, k) => ({
        token: t.address, price: price(), observedAt: at(r.int(-2, 70), r.int(0, 59)), blockNumber: i * 1000 + k,
      }))));
      const store = createPriceHistoryStore({ db, staleMs: 0 });
      const addresses = tokens.map((t) => t.address);
      for (const now of [NOW, later(r.int(1, 5) + 0.5), later(r.int(6, 60) + 0.25)]) {
        for (let q = 0; q < 5; q++) {
          const some = addresses.filter(() => r.next() < 0.3);
          assert.equal(await store.histories(some, now), await sqlHistories(db, some, now), `${now.toISOString()}: ${some.length} tokens`);
        }
        for (const address of addresses) assert.equal(await store.history(address, now), await sqlHistory(db, address, now), `${now.toISOString()}: ${address}`);
      }
      store.stop();
    });

    it('follows new points and token prices incrementally', async () => {
      await resetDatabase(db);
      await seed(db);
      const store = createPriceHistoryStore({ db, staleMs: 0 });
      await assertSameAsSql(db, store, NOW, 'loaded');
      const generation = (await readDataState(db)).generation;
      await appendPricePoints(db, [
        { token: addressOf(7), price: '12.5', observedAt: at(0, 20), blockNumber: 1100 }, // this hour
        { token: addressOf(1), price: '100', observedAt: at(0, 50), blockNumber: 1101 }, // overwrites this hour
        { token: addressOf(4), price: '3', observedAt: at(27, 2), blockNumber: 1102 }, // a newer carried price
        { token: addressOf(10), price: '4', observedAt: at(70), blockNumber: 1103 }, // older than everything: no effect
        { token: addressOf(0), price: '0', observedAt: at(12), blockNumber: 1104 }, // first price, zero
      ]);
      const [eight] = makeTokens(9).slice(8);
      await upsertTokens(db, [{ ...eight!, currentPrice: '4', priceUpdatedAt: at(1, 30), at: at(1, 30) }]);
      assert.equal((await readDataState(db)).generation, generation, 'no deletion: an incremental load');
      await assertSameAsSql(db, store, NOW, 'after writes');
      assert.match((await store.history(addressOf(7), NOW))!, /\{"price":12\.5,"timestamp":"2026-11-21T12:00:00\.000Z"\}\]$/);
      assert.equal(store.version(), `${generation}.${(await readDataState(db)).version}`);
      store.stop();
    });

    it('forgets what it holds when rows were deleted (generation bump) and reads those asked for again', async () => {
      await resetDatabase(db);
      await seed(db);
      const store = createPriceHistoryStore({ db, staleMs: 60_000, fill: false });
      await assertSameAsSql(db, store, NOW, 'loaded');
      const held = await store.histories(all, NOW);
      assert.equal(store.stats().tokens, TOKENS);
      // a reorg-like deletion: rows gone, generation moved
      await db.query(`DELETE FROM price_points WHERE token = $1 AND hour >= $2`, [addressOf(7), at(2).toISOString()]);
      await db.query(`DELETE FROM tokens WHERE address = $1`, [addressOf(2)]);
      await bumpDataGeneration(db);
      // until the next check the histories held answer; the check forgets them all
      assert.equal(await store.histories(all, NOW), held);
      await store.refresh(true);
      assert.equal(store.stats().tokens, 0);
      await assertSameAsSql(db, store, NOW, 'after deletion');
      assert.notEqual(await store.histories(all, NOW), held);
      assert.equal(await store.history(addressOf(2), NOW), undefined);
      store.stop();
    });

    it('holds at most maxBytes: forgets the oldest, reads an evicted history again as it now is', async () => {
      await resetDatabase(db);
      await seed(db);
      // room for about three histories of the seed (each ~300-450 bytes by the store's estimate)
      let reads = 0; // queries for histories not held
      const counted: Queryable = { exec: (sql) => db.exec(sql), query: (sql, params) => (/= ANY\(/.test(sql) && reads++, db.query(sql, params)) };
      const store = createPriceHistoryStore({ db: counted, staleMs: 0, maxBytes: 1200, fill: false });
      await assertSameAsSql(db, store, NOW, 'first');
      const { tokens, bytes } = store.stats();
      assert.ok(tokens >= 2 && tokens < TOKENS, `${tokens} held`);
      assert.ok(bytes <= 1200, `${bytes} bytes held`);
      // the most recently asked for stay: 13, 12, 11 were asked for last (in address order)
      const last = all.slice(0, TOKENS).at(-1)!;
      const readsBefore = reads;
      const before = await store.history(last, NOW);
      assert.equal(reads, readsBefore, 'a hit reads nothing');
      // 1 is evicted by now; its points change meanwhile: read again, it answers the new ones
      await appendPricePoints(db, [{ token: addressOf(1), price: '77', observedAt: at(0, 55), blockNumber: 1200 }]);
      const evicted = await store.history(addressOf(1), NOW);
      assert.equal(reads, readsBefore + 1, 'an evicted history is read again');
      assert.match(evicted!, /\{"price":77,"timestamp":"2026-11-21T12:00:00\.000Z"\}\]$/);
      assert.equal(await store.history(addressOf(1), NOW), await sqlHistory(db, addressOf(1), NOW));
      // a held one follows incrementally: 1 is held now, a newer point arrives
      await appendPricePoints(db, [{ token: addressOf(1), price: '78', observedAt: at(0, 58), blockNumber: 1201 }]);
      assert.match((await store.history(addressOf(1), NOW))!, /\{"price":78,"timestamp":"2026-11-21T12:00:00\.000Z"\}\]$/);
      assert.equal(await store.history(last, NOW), before);
      assert.ok(store.stats().bytes <= 1200);
      await assertSameAsSql(db, store, later(3), 'later');
      store.stop();
    });

    it('gives a history asked for again a second chance when the bound forgets the oldest', async () => {
      await resetDatabase(db);
      await seed(db);
      const [a, b, c] = [addressOf(1), addressOf(7), addressOf(10)];
      const sizes = createPriceHistoryStore({ db, staleMs: 60_000, fill: false });
      const size = new Map<string, number>();
      for (const address of [a, b, c]) {
        const before = sizes.stats().bytes;
        await sizes.history(address, NOW);
        size.set(address, sizes.stats().bytes - before);
      }
      sizes.stop();
      const [x, y, z] = [size.get(a)!, size.get(b)!, size.get(c)!];
      // room for any two of the three, never all three
      const maxBytes = Math.max(x + y, x + z, y + z);
      assert.ok(x + y + z > maxBytes);
      let reads = 0;
      const counted: Queryable = { exec: (sql) => db.exec(sql), query: (sql, params) => (/= ANY\(/.test(sql) && reads++, db.query(sql, params)) };
      const store = createPriceHistoryStore({ db: counted, staleMs: 60_000, maxBytes, fill: false });
      await store.history(a, NOW);
      await store.history(b, NOW);
      await store.history(a, NOW); // a hit: a is marked
      assert.equal(reads, 2);
      await store.history(c, NOW); // over the bound: a (oldest, marked) is kept, b goes
      assert.equal(store.stats().tokens, 2);
      await store.history(a, NOW);
      assert.equal(reads, 3, 'a still held');
      await store.history(b, NOW);
      assert.equal(reads, 4, 'b was forgotten');
      assert.equal(await store.history(b, NOW), await sqlHistory(db, b, NOW));
      store.stop();
    });

    it('fills itself in the background after a full load, up to its bound, then answers without reading', async () => {
      await resetDatabase(db);
      await seed(db);
      let reads = 0; // queries for histories not held
      const counted: Queryable = { exec: (sql) => db.exec(sql), query: (sql, params) => (/= ANY\(/.test(sql) && reads++, db.query(sql, params)) };
      const filled = async (store: PriceHistoryStore) => {
        for (let last = -1; store.stats().tokens !== last; ) {
          last = store.stats().tokens;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      // pages of 3 tokens: several chunks
      const store = createPriceHistoryStore({ db: counted, staleMs: 60_000, chunkRows: 3 });
      await store.refresh(true, NOW);
      await filled(store);
      assert.equal(store.stats().tokens, TOKENS);
      const known = all.slice(0, TOKENS);
      assert.equal(await store.histories(known, NOW), await sqlHistories(db, known, NOW));
      for (const address of known) assert.equal(await store.history(address, NOW), await sqlHistory(db, address, NOW));
      assert.equal(reads, 0, 'every answer from memory');
      store.stop();
      // a small bound: the fill stops at it, the rest is read when asked for
      const small = createPriceHistoryStore({ db: counted, staleMs: 60_000, chunkRows: 3, maxBytes: 1500 });
      await small.refresh(true, NOW);
      await filled(small);
      const { tokens, bytes } = small.stats();
      assert.ok(tokens > 0 && tokens < TOKENS && bytes <= 1500, `${tokens} held, ${bytes} bytes`);
      await assertSameAsSql(db, small, NOW, 'partly filled');
      assert.ok(reads > 0);
      small.stop();
    });

    it('starts the fill only once fillAfter settles (the token catalogue loads first)', async () => {
      await resetDatabase(db);
      await seed(db);
      let chunks = 0;
      const counted: Queryable = { exec: (sql) => db.exec(sql), query: (sql, params) => (/WHERE t\.address > \$2/.test(sql) && chunks++, db.query(sql, params)) };
      let release!: () => void;
      const store = createPriceHistoryStore({ db: counted, staleMs: 60_000, chunkRows: 3, fillAfter: new Promise<void>((resolve) => (release = resolve)) });
      await store.refresh(true, NOW);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(chunks, 0, 'no fill query before it settles');
      assert.equal(store.stats().tokens, 0);
      release();
      for (const deadline = Date.now() + 30_000; store.stats().tokens < TOKENS && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(store.stats().tokens, TOKENS);
      assert.ok(chunks > 1);
      store.stop();
    });

    it('reads a fill chunk again when a version check overlapped it, and goes on (busy indexer)', async () => {
      await resetDatabase(db);
      await seed(db);
      // every chunk's first 5 reads overlap a check: 25 in all, never 20 in a row
      const overlapped = new Map<string, number>();
      let store: PriceHistoryStore | undefined;
      const busy: Queryable = {
        exec: (sql) => db.exec(sql),
        async query<T>(sql: string, params?: readonly SqlParam[]) {
          const rows = await db.query<T>(sql, params);
          if (/WHERE t\.address > \$2/.test(sql)) {
            const after = String(params![1]);
            const n = (overlapped.get(after) ?? 0) + 1;
            overlapped.set(after, n);
            if (n <= 5) void store!.refresh(true).catch(() => {});
          }
          return rows;
        },
      };
      store = createPriceHistoryStore({ db: busy, staleMs: 60_000, chunkRows: 3 });
      await store.refresh(true, NOW);
      // Up to 30 s: on a loaded 2-core machine PostgreSQL's ~30 reads took over the 4 s once allowed.
      for (const deadline = Date.now() + 30_000; store.stats().tokens < TOKENS && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(store.stats().tokens, TOKENS);
      assert.equal(overlapped.size, 5, 'five chunks of 3');
      const reads = [...overlapped.values()];
      assert.ok(reads.every((n) => n >= 6) && reads.reduce((a, b) => a + b, 0) - 5 > 20, `reads per chunk: ${reads.join(' ')} (more than 20 overlapped in all)`);
      await assertSameAsSql(db, store, NOW, 'filled while busy');
      store.stop();
    });

    it('waits for a slow load before reading the overlapped chunk again (one slow version check does not end the fill)', async () => {
      await resetDatabase(db);
      await seed(db);
      // the first chunk read starts a load whose version read takes 500 ms: far longer than 20 chunk reads
      let slowLoads = 0;
      let chunkReads = 0;
      let store: PriceHistoryStore | undefined;
      const slow: Queryable = {
        exec: (sql) => db.exec(sql),
        async query<T>(sql: string, params?: readonly SqlParam[]) {
          if (slowLoads === 1 && /FROM data_version/.test(sql)) {
            slowLoads++;
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
          const rows = await db.query<T>(sql, params);
          if (/WHERE t\.address > \$2/.test(sql) && chunkReads++ === 0) {
            slowLoads = 1;
            void store!.refresh(true).catch(() => {});
          }
          return rows;
        },
      };
      store = createPriceHistoryStore({ db: slow, staleMs: 60_000, chunkRows: 3 });
      await store.refresh(true, NOW);
      for (const deadline = Date.now() + 30_000; store.stats().tokens < TOKENS && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(slowLoads, 2, 'the slow load ran');
      assert.equal(store.stats().tokens, TOKENS);
      assert.equal(chunkReads, 6, 'five chunks of 3, the first read twice');
      await assertSameAsSql(db, store, NOW, 'filled after a slow load');
      store.stop();
    });

    it('keeps a miss read while a load ran only for that request (it may be older than the load applied)', async () => {
      await resetDatabase(db);
      await seed(db);
      // a database whose version reads can be held back, so that a load is under way while a miss is read
      let holding = false;
      let hold: (() => void) | undefined;
      const slow: Queryable = {
        exec: (sql) => db.exec(sql),
        async query(sql, params) {
          if (holding && hold === undefined && /FROM data_version/.test(sql)) await new Promise<void>((resolve) => (hold = resolve));
          return db.query(sql, params);
        },
      };
      const store = createPriceHistoryStore({ db: slow, staleMs: 60_000, fill: false });
      await store.refresh(true, NOW);
      holding = true;
      const check = store.refresh(true, NOW);
      while (!hold) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(await store.history(addressOf(7), NOW), await sqlHistory(db, addressOf(7), NOW));
      assert.equal(store.stats().tokens, 0, 'not kept: a load was under way');
      holding = false;
      hold();
      await check;
      assert.equal(await store.history(addressOf(7), NOW), await sqlHistory(db, addressOf(7), NOW));
      assert.equal(store.stats().tokens, 1, 'kept');
      store.stop();
    });

    it('keeps a miss read across a check that found nothing changed, not across one that applied a change', async () => {
      await resetDatabase(db);
      await seed(db);
      // a database whose miss reads can be held back while a check runs and ends
      let holdMisses = false;
      let gate: { release?: () => void } = {};
      const slow: Queryable = {
        exec: (sql) => db.exec(sql),
        async query(sql, params) {
          if (holdMisses && /= ANY\(/.test(sql)) await new Promise<void>((resolve) => (gate.release = resolve));
          return db.query(sql, params);
        },
      };
      const store = createPriceHistoryStore({ db: slow, staleMs: 60_000, fill: false });
      await store.refresh(true, NOW);
      const overlapped = async (address: string, between: () => Promise<void>) => {
        holdMisses = true;
        gate = {};
        const answer = store.history(address, NOW);
        while (!gate.release) await new Promise((resolve) => setImmediate(resolve));
        holdMisses = false;
        await between();
        gate.release();
        return answer;
      };
      // the version is unchanged: the check applies nothing, the read is kept
      assert.equal(await overlapped(addressOf(7), () => store.refresh(true, NOW)), await sqlHistory(db, addressOf(7), NOW));
      assert.equal(store.stats().tokens, 1, 'kept');
      // a change applied while the read was under way: answered, not kept
      await overlapped(addressOf(8), async () => {
        await bumpDataVersion(db);
        await store.refresh(true, NOW);
      });
      assert.equal(store.stats().tokens, 1, 'not kept: a change was applied meanwhile');
      store.stop();
    });

    it('rolls over the hour: drops what left the window, answers like SQL, reloads for an earlier clock', async () => {
      await resetDatabase(db);
      await seed(db);
      const store = createPriceHistoryStore({ db, staleMs: 60_000, fill: false });
      await store.refresh(true, NOW);
      assert.equal(store.stats().tokens, 0, 'nothing read before it is asked for');
      const first = await store.history(addressOf(1), NOW);
      await assertSameAsSql(db, store, NOW, 'now');
      const before = store.stats();
      assert.equal(before.cutoff?.toISOString(), at(24).toISOString());
      for (const hours of [1, 2, 7, 30, 80]) {
        await assertSameAsSql(db, store, later(hours), `+${hours} h`);
        assert.equal(store.stats().cutoff?.toISOString(), new Date(at(24).getTime() + hours * HOUR).toISOString());
      }
      assert.ok(store.stats().points < before.points, 'old points dropped');
      assert.equal(store.stats().points, 6, 'one carried point per token with prices');
      // a clock moved back needs points already dropped: a full reload brings them back
      assert.equal(await store.history(addressOf(1), NOW), first);
      await assertSameAsSql(db, store, NOW, 'back');
      store.stop();
    });

    it('answers the same after pruning, without a reload', async () => {
      await resetDatabase(db);
      await seed(db);
      const store = createPriceHistoryStore({ db, staleMs: 0 });
      const beforeSql = await sqlHistories(db, all, NOW);
      const beforeStore = await store.histories(all, NOW);
      const state = await readDataState(db);
      const deleted = await prunePricePoints(db, { newest: at(0, 59) }); // keeps from 48 h before 12:00
      assert.ok(deleted > 0);
      assert.deepEqual(await readDataState(db), state, 'pruning moves no version');
      assert.equal(await sqlHistories(db, all, NOW), beforeSql, 'SQL path unchanged');
      assert.equal(await store.histories(all, NOW), beforeStore, 'running store unchanged');
      const fresh = createPriceHistoryStore({ db, staleMs: 0 });
      assert.equal(await fresh.histories(all, NOW), beforeSql, 'a store loaded after pruning');
      await assertSameAsSql(db, fresh, later(20), 'later, after pruning');
      store.stop();
      fresh.stop();
    });
  });
}
