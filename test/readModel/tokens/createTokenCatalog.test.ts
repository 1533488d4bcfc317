// The in-memory catalogue follows the database incrementally and orders exactly like SQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTokenCatalog } from '../../../src/readModel/tokens/createTokenCatalog.ts';
import { toToken } from '../../../src/readModel/tokens/toToken.ts';
import { bumpDataGeneration, loadTokenChanges, readDataState, recordSwaps, refreshSwapCounts, upsertPools, upsertTokens, type Database, type PoolWrite, type Queryable, type TokenWrite } from '../../../src/db/index.ts';
import { listTokens, orderColumns, type OrderColumn } from '../../oracles/index.ts';
import { resetDatabase, testDatabases } from '../../helpers/testDatabases.ts';
import { BASE_TIME, addressOf, makeTokens } from '../../helpers/tokenFixtures.ts';

const page = (answer: { bytes: Buffer }) => JSON.parse(answer.bytes.toString()) as { data: { contractAddress: string; name: string }[]; meta: { totalItemsCount: number } };

for (const target of testDatabases) {
  describe(`token catalogue on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
    });
    after(() => db.close());

    it('loads only what changed since its version, and everything after a deletion', async () => {
      await resetDatabase(db);
      await upsertTokens(db, makeTokens(10));
      const first = await loadTokenChanges(db);
      assert.equal(first.full, true);
      assert.equal(first.rows.length, 10);
      assert.equal((await loadTokenChanges(db, first)).rows.length, 0, 'nothing new');
      await upsertTokens(db, makeTokens(10)); // the same values again
      const same = await loadTokenChanges(db, first);
      assert.equal(same.rows.length, 0, 'a write that changes nothing stamps nothing');
      await upsertTokens(db, makeTokens(10).slice(0, 2).map((t) => ({ ...t, name: `${t.name}!`, at: new Date() })));
      const changed = await loadTokenChanges(db, same);
      assert.deepEqual(changed.rows.map((r) => r.address).sort(), [addressOf(0), addressOf(1)]);
      await refreshSwapCounts(db, BASE_TIME); // counts already zero: no change
      assert.equal((await loadTokenChanges(db, changed)).rows.length, 0);
      await resetDatabase(db);
      const afterDelete = await loadTokenChanges(db, changed);
      assert.equal(afterDelete.full, true);
      assert.equal(afterDelete.rows.length, 0);
    });

    it("follows pool changes: a token's pools page and the price source its JSON embeds", async () => {
      await resetDatabase(db);
      const tokens = makeTokens(4);
      const pool = (i: number, token0: number, token1: number, liquidity: string | null): PoolWrite => ({
        address: addressOf(100 + i), dex: addressOf(200), family: 'solidly', fee: null, stable: i % 2 === 0, hooks: null, priceSourceExclusion: null, token0Native: false,
        token0: addressOf(token0), token0Symbol: `T${token0}`, token1: addressOf(token1), token1Symbol: `T${token1}`,
        liquidity, price: '2.5', createdBlock: 1,
      });
      await upsertTokens(db, tokens.map((t, i) => (i === 1 ? { ...t, priceSource: addressOf(101) } : t)));
      await upsertPools(db, [pool(0, 0, 1, '10'), pool(1, 1, 2, '300.5'), pool(2, 1, 3, null)]);
      const catalog = createTokenCatalog({ db, staleMs: 0 });
      const pools = async (token: number, p = 1, limit = 50) =>
        JSON.parse((await catalog.pools(addressOf(token), p, limit))!) as { data: { address: string; liquidity: number | null; volume24h: number; swaps24h: number }[]; meta: { totalItemsCount: number; pagesCount: number } };
      const source = async () => (JSON.parse((await catalog.token(addressOf(1)))!.toString()) as { info: { priceSource: { address: string; liquidity: number; swaps24h: number } | null } }).info.priceSource;
      assert.deepEqual((await pools(1)).data.map((p) => [p.address.toLowerCase(), p.liquidity]), [[addressOf(101), 300.5], [addressOf(100), 10], [addressOf(102), null]]);
      assert.deepEqual((await pools(1, 2, 2)).data.map((p) => p.address.toLowerCase()), [addressOf(102)]);
      assert.deepEqual((await pools(1, 2, 2)).meta, { page: 2, limit: 2, totalItemsCount: 3, pagesCount: 2 });
      assert.equal((await pools(0)).meta.totalItemsCount, 1);
      assert.equal(await catalog.pools(addressOf(99), 1, 50), undefined, 'not an indexed token');
      assert.equal((await source())?.liquidity, 300.5);
      // The source pool changes: its token is restamped, so the embedded pool follows incrementally.
      await upsertPools(db, [pool(1, 1, 2, '5')]);
      assert.equal((await source())?.liquidity, 5);
      assert.deepEqual((await pools(1)).data.map((p) => p.address.toLowerCase()), [addressOf(100), addressOf(101), addressOf(102)]);
      // So do its 24 h figures.
      await recordSwaps(db, [{ blockNumber: 1, logIndex: 0, token: addressOf(1), side: 'buy', txHash: `0x${'ab'.repeat(32)}`, pool: addressOf(101), occurredAt: BASE_TIME, amount: 10n, valueUsd: '7.25' }]);
      await refreshSwapCounts(db, new Date(BASE_TIME.getTime() + 60_000));
      assert.deepEqual([(await source())?.swaps24h, (await pools(2)).data[0]?.volume24h], [1, 7.25]);
      catalog.stop();
    });

    it('answers the same pages as the SQL query, for every order, after incremental updates', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(60);
      tokens[3] = { ...tokens[3]!, name: 'Ünïcode Ω' };
      tokens[4] = { ...tokens[4]!, name: 'émoji 🚀' };
      tokens[5] = { ...tokens[5]!, name: 'ZEBRA' };
      // equal as doubles, ordered by their exact values against the address order
      tokens[8] = { ...tokens[8]!, currentPrice: '1.00000000000000000002', fdv: '5.00000000000000000002', last24hVariation: '-2.00000000000000000002' };
      tokens[9] = { ...tokens[9]!, currentPrice: '1.00000000000000000001', fdv: '5.00000000000000000001', last24hVariation: '2.00000000000000000001' };
      await upsertTokens(db, tokens);
      const catalog = createTokenCatalog({ db, staleMs: 0 });
      await catalog.refresh();
      await upsertTokens(db, [{ ...tokens[7]!, currentPrice: '123456.000000000000000001', fdv: '5', at: new Date() }]);
      for (const order of ['name', 'symbol', 'fdv', 'currentPrice', 'last24hVariation', 'last24hVariationAbsolute', 'totalSupply', 'updatedAt'] as const) {
        for (const sort of ['asc', 'desc'] as const) {
          for (const [isSecure, window] of [undefined, true].flatMap((s) => [[s, { page: 2, limit: 7 }], [s, { page: 1, limit: 100 }]] as const)) {
            const query = { ...window, order, sort, isSecure };
            const sql = await listTokens(db, query);
            const mem = page(await catalog.page(query));
            assert.deepEqual(mem.data.map((t) => t.contractAddress), sql.rows.map((r) => r.checksumAddress), `${order} ${sort} ${isSecure} ${window.limit}`);
            assert.equal(mem.meta.totalItemsCount, sql.total);
          }
        }
      }
      const state = await readDataState(db);
      assert.equal(catalog.version(), `${state.catalogueGeneration}.${state.version}`);
      catalog.stop();
    });

    it('moves changed tokens within orderings it already sorted: every order matches SQL after each update', async () => {
      await resetDatabase(db);
      const all = makeTokens(81);
      const tokens = all.slice(0, 80);
      await upsertTokens(db, tokens);
      const catalog = createTokenCatalog({ db, staleMs: 0 });
      const queries = (Object.keys(orderColumns) as OrderColumn[]).flatMap((order) =>
        (['asc', 'desc'] as const).flatMap((sort) => [undefined, true, false].map((isSecure) => ({ page: 1, limit: 100, order, sort, isSecure }))),
      );
      for (const query of queries) await catalog.page(query); // every ordering sorted before the updates
      const later = (h: number) => new Date(BASE_TIME.getTime() + h * 3_600_000);
      const updates: [string, TokenWrite[]][] = [
        ['keys moved, a price gone, security flipped', tokens.slice(0, 3).map((t, i) => ({
          ...t, name: `Änew ${i}`, symbol: `Z${i}`, currentPrice: i === 0 ? null : `${i * 1000}.25`, fdv: i === 1 ? '7' : t.fdv,
          last24hVariation: i === 2 ? '-99.5' : t.last24hVariation, isSecure: !t.isSecure, isPossibleSpam: !t.isPossibleSpam, at: later(1),
          priceChange1h: i === 1 ? null : `${i * 40}.5`, priceChange7d: i === 0 ? '-87.25' : t.priceChange7d,
        }))],
        ['a new token', [{ ...all[80]!, at: later(2) }]],
        ['ties with neighbours', tokens.slice(40, 42).map((t) => ({ ...t, currentPrice: tokens[10]!.currentPrice, fdv: tokens[10]!.fdv, at: later(3) }))],
        // equal as doubles: placed by their exact values, against the address order
        ['decimals equal as doubles', tokens.slice(44, 46).map((t, i) => ({
          ...t, currentPrice: `7.0000000000000000000${2 - i}`, fdv: `9.0000000000000000000${2 - i}`, last24hVariation: `${i ? '' : '-'}3.0000000000000000000${2 - i}`, at: later(3.5),
          priceChange1h: `${i ? '-' : ''}4.0000000000000000000${2 - i}`, priceChange7d: `11.0000000000000000000${1 + i}`,
        }))],
        ['too many changes: sorted again', tokens.slice(20, 40).map((t, i) => ({ ...t, fdv: `${i}`, at: later(4) }))],
      ];
      for (const [name, writes] of updates) {
        await upsertTokens(db, writes);
        for (const query of queries) {
          const sql = await listTokens(db, query);
          const mem = page(await catalog.page(query));
          assert.deepEqual(mem.data.map((t) => t.contractAddress), sql.rows.map((r) => r.checksumAddress), `${name}: ${query.order} ${query.sort} ${query.isSecure}`);
          assert.equal(mem.meta.totalItemsCount, sql.total);
        }
      }
      catalog.stop();
    });

    it('breaks ties by address like SQL when addresses differ in their leading digits, listed and by addresses', async () => {
      await resetDatabase(db);
      // leading hex digits spread out (the sort keys' address prefix decides), plus two that
      // share their first 52 bits (the full address decides); every value tied several times
      const spread = (i: number) => `0x${((i * 0x9e3779b1) >>> 0).toString(16).padStart(8, '0')}${'0'.repeat(31)}${(i % 16).toString(16)}`;
      const tokens = makeTokens(48).map((t, i) => ({ ...t, address: i < 46 ? spread(i) : `0x${'ab'.repeat(6)}a${'0'.repeat(25)}${93 - i}` }));
      await upsertTokens(db, tokens);
      const catalog = createTokenCatalog({ db, staleMs: 0 });
      const addresses = tokens.map((t) => t.address.toLowerCase());
      for (const order of Object.keys(orderColumns) as OrderColumn[]) {
        for (const sort of ['asc', 'desc'] as const) {
          for (const byAddresses of [false, true]) {
            const query = { page: 1, limit: 100, order, sort, ...(byAddresses ? { addresses } : {}) };
            const sql = await listTokens(db, query);
            const mem = page(await catalog.page(query));
            assert.deepEqual(mem.data.map((t) => t.contractAddress), sql.rows.map((r) => r.checksumAddress), `${order} ${sort} ${byAddresses}`);
          }
        }
      }
      catalog.stop();
    });

    it("gives a page's ETag from its tokens and meta: changed by either, kept otherwise", async () => {
      await resetDatabase(db);
      const tokens = makeTokens(30);
      await upsertTokens(db, tokens);
      const catalog = createTokenCatalog({ db, staleMs: 0 });
      const query = { page: 1, limit: 5, order: 'contractAddress', sort: 'asc' } as const;
      const first = await catalog.page(query);
      assert.match(first.etag, /^W\/"[\w-]{27}"$/);
      assert.equal((await catalog.page(query)).etag, first.etag, 'same data, same ETag');
      await upsertTokens(db, [{ ...tokens[20]!, name: 'Renamed, not on the page', at: new Date() }]);
      assert.equal((await catalog.page(query)).etag, first.etag, 'a change off the page keeps it');
      await upsertTokens(db, [{ ...tokens[2]!, name: 'Renamed on the page', at: new Date() }]);
      const renamed = await catalog.page(query);
      assert.notEqual(renamed.etag, first.etag, 'a token on the page changed');
      await upsertTokens(db, makeTokens(31).slice(30));
      const grown = await catalog.page(query);
      assert.deepEqual(grown.bytes.subarray(0, grown.bytes.indexOf('"meta"')), renamed.bytes.subarray(0, renamed.bytes.indexOf('"meta"')), 'same tokens');
      assert.notEqual(grown.etag, renamed.etag, 'only the meta (total) changed');
      catalog.stop();
    });

    it('keeps serving what it had when a batch fails to load, incremental or full', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(12);
      await upsertTokens(db, tokens);
      const catalog = createTokenCatalog({ db, staleMs: 60_000 }); // pages answer from memory; refresh(true) loads
      const queries = [
        { page: 1, limit: 100, order: 'fdv', sort: 'desc' },
        { page: 1, limit: 5, order: 'name', sort: 'asc' },
        { page: 1, limit: 100, order: 'fdv', sort: 'desc', addresses: [tokens[2]!.address.toLowerCase(), tokens[7]!.address.toLowerCase()] },
      ] as const;
      await catalog.refresh(true);
      const before = await Promise.all(queries.map((q) => catalog.page(q)));
      const version = catalog.version();
      // A changed row that cannot be serialised: 'infinity' is a valid timestamptz, not an ISO date.
      await upsertTokens(db, [{ ...tokens[2]!, name: 'Changed', at: new Date() }, { ...tokens[7]!, name: 'Changed too', at: new Date() }]);
      await db.query(`UPDATE tokens SET created_at = 'infinity' WHERE address = $1`, [tokens[7]!.address.toLowerCase()]);
      await assert.rejects(catalog.refresh(true), /toISOString|Invalid time value/); // PGlite: a string, pg: an invalid Date
      assert.equal(catalog.version(), version);
      for (const [i, q] of queries.entries()) assert.deepEqual(await catalog.page(q), before[i], 'incremental: the same pages');
      // a full load (the generation moved) with the same bad row
      await resetDatabase(db);
      await upsertTokens(db, makeTokens(20));
      await db.query(`UPDATE tokens SET created_at = 'infinity' WHERE address = $1`, [tokens[7]!.address.toLowerCase()]);
      await assert.rejects(catalog.refresh(true), /toISOString|Invalid time value/); // PGlite: a string, pg: an invalid Date
      assert.equal(catalog.version(), version);
      for (const [i, q] of queries.entries()) assert.deepEqual(await catalog.page(q), before[i], 'full: the same pages');
      catalog.stop();
    });

    it('applies a large incremental load chunk by chunk, naming no version until it is whole', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(17);
      await upsertTokens(db, tokens);
      // Each token query of a load first records what the catalogue answers at that moment.
      const seen: { version: string; name: string }[] = [];
      let catalog: ReturnType<typeof createTokenCatalog> | undefined;
      let watching = false;
      const watched: Queryable = {
        async query(sql, params) {
          if (watching && /FROM tokens/.test(sql) && /row_version > \$1/.test(sql)) {
            const token = JSON.parse((await catalog!.token(addressOf(0)))!.toString()) as { name: string };
            seen.push({ version: catalog!.version(), name: token.name });
          }
          return db.query(sql, params);
        },
        exec: (sql) => db.exec(sql),
      };
      catalog = createTokenCatalog({ db: watched, staleMs: 60_000, chunkRows: 3 });
      await catalog.refresh(true);
      const before = catalog.version();
      const changed = [0, 1, 2, 5, 6, 7, 8, 12, 16];
      await upsertTokens(db, changed.map((i) => ({ ...tokens[i]!, fdv: `${i + 0.5}`, name: `${tokens[i]!.name}*`, at: new Date() })));
      watching = true;
      await catalog.refresh(true);
      watching = false;
      // Chunks of 3 changed rows: four queries, the last one empty.
      assert.deepEqual(seen.map((s) => s.version), [before, '', '', ''], 'no version while only some chunks are applied');
      assert.deepEqual(seen.map((s) => s.name.endsWith('*')), [false, true, true, true], "the first chunk's tokens served before the load ends");
      assert.notEqual(catalog.version(), '');
      assert.notEqual(catalog.version(), before);
      const fresh = createTokenCatalog({ db, staleMs: 0 });
      for (const order of ['name', 'fdv', 'symbol', 'contractAddress'] as const) {
        const q = { page: 1, limit: 100, order, sort: 'desc' } as const;
        assert.deepEqual(await catalog.page(q), await fresh.page(q), order);
      }
      catalog.stop();
      fresh.stop();
    });

    it('applies a full load in place: removes the deleted tokens, keeps the rest, answers like a fresh catalogue', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(14);
      await upsertTokens(db, tokens);
      const seen: string[] = [];
      let catalog: ReturnType<typeof createTokenCatalog> | undefined;
      let watching = false;
      const watched: Queryable = {
        async query(sql, params) {
          if (watching && /FROM tokens/.test(sql) && /ORDER BY address LIMIT/.test(sql)) seen.push(catalog!.version());
          return db.query(sql, params);
        },
        exec: (sql) => db.exec(sql),
      };
      catalog = createTokenCatalog({ db: watched, staleMs: 60_000, chunkRows: 4 });
      await catalog.refresh(true);
      for (const order of ['name', 'fdv'] as const) await catalog.page({ page: 1, limit: 100, order, sort: 'asc' }); // orderings held
      await catalog.page({ page: 1, limit: 100, search: 'Tok' });
      const before = catalog.version();
      // Rows deleted (as a reorg does) and others changed or added: the generation moves.
      await db.query(`DELETE FROM tokens WHERE address = ANY($1::text[])`, [[addressOf(1), addressOf(6), addressOf(13)]]);
      await upsertTokens(db, [...makeTokens(17).slice(14), { ...tokens[0]!, name: 'Renamed', fdv: '0.5', at: new Date() }, { ...tokens[9]!, fdv: '999999', at: new Date() }]);
      await bumpDataGeneration(db);
      watching = true;
      await catalog.refresh(true);
      watching = false;
      assert.equal(seen[0], before);
      assert.ok(seen.slice(1).length > 0 && seen.slice(1).every((v) => v === ''), `no version while a full load is applied in place: ${JSON.stringify(seen)}`);
      assert.notEqual(catalog.version(), '');
      for (const gone of [1, 6, 13]) assert.equal(await catalog.token(addressOf(gone)), undefined, `token ${gone} removed`);
      const fresh = createTokenCatalog({ db, staleMs: 0 });
      for (const query of [
        { page: 1, limit: 100, order: 'name', sort: 'asc' },
        { page: 1, limit: 100, order: 'fdv', sort: 'asc' },
        { page: 1, limit: 5, order: 'symbol', sort: 'desc' },
        { page: 1, limit: 100, search: 'Tok' },
        { page: 1, limit: 100, order: 'fdv', sort: 'desc', addresses: [addressOf(0), addressOf(1), addressOf(15)] },
      ] as const) assert.deepEqual(await catalog.page(query), await fresh.page(query), JSON.stringify(query));
      for (let i = 0; i < 17; i++) assert.deepEqual(await catalog.token(addressOf(i)), await fresh.token(addressOf(i)), `token ${i}`);
      catalog.stop();
      fresh.stop();
    });

    it("splices the coverage's historyFrom into every answer: a filled range reloads no token, new windows are a full load", async () => {
      await resetDatabase(db);
      // non-ASCII text before the splice: bytes and characters differ there
      const tokens = makeTokens(12).map((t, i) => (i === 4 ? { ...t, name: 'Tökén 4 🚀 "q"' } : t));
      await upsertTokens(db, tokens);
      let fullLoads = 0;
      const watched: Queryable = {
        async query(sql, params) {
          if (/SELECT count\(\*\)::int AS tokens FROM tokens/.test(sql)) fullLoads++;
          return db.query(sql, params);
        },
        exec: (sql) => db.exec(sql),
      };
      const catalog = createTokenCatalog({ db: watched, staleMs: 60_000, chunkRows: 5 });
      const indexed = new Date('2026-11-21T12:00:00.000Z');
      const hoursBack = (h: number) => new Date(indexed.getTime() - h * 3_600_000).toISOString();
      // What the indexer publishes as it fills history newest first (checkpoint.ts).
      const cover = async (historyFrom: string | null) =>
        db.query(`UPDATE data_version SET history_from = $1, indexed_time = $2, version = version + 1 WHERE id = 1`, [historyFrom, indexed.toISOString()]);
      const expectAnswers = async (historyFrom: string | null, windows: { h1: boolean; h6: boolean; h24: boolean; d7: boolean }) => {
        const view = { windows, historyFrom };
        for (const query of [
          { page: 1, limit: 100, order: 'fdv', sort: 'desc' },
          { page: 2, limit: 5, order: 'name', sort: 'asc' },
          { page: 1, limit: 100, order: 'priceChange1h', sort: 'asc', isSecure: true },
        ] as const) {
          const { rows, total } = await listTokens(db, query);
          const expected = { data: rows.map((row) => toToken(row, undefined, view)), meta: { page: query.page, limit: query.limit, totalItemsCount: total, pagesCount: Math.ceil(total / query.limit) } };
          assert.equal((await catalog.page(query)).bytes.toString('utf8'), JSON.stringify(expected), `${JSON.stringify(query)} with ${JSON.stringify(view)}`);
        }
        const { rows } = await listTokens(db, { page: 1, limit: 100, order: 'fdv', sort: 'desc', addresses: [addressOf(4)] });
        assert.equal((await catalog.token(addressOf(4)))!.toString('utf8'), JSON.stringify(toToken(rows[0]!, undefined, view)));
      };
      const etag = async () => (await catalog.page({ page: 1, limit: 10, order: 'fdv', sort: 'desc' })).etag;

      await cover(hoursBack(2));
      await catalog.refresh(true);
      assert.equal(fullLoads, 1, 'the first load');
      await expectAnswers(hoursBack(2), { h1: true, h6: false, h24: false, d7: false });
      const twoHours = await etag();

      await cover(hoursBack(3)); // a filled range: the same windows
      await catalog.refresh(true);
      assert.equal(fullLoads, 1, 'historyFrom alone moved: no token is built again');
      await expectAnswers(hoursBack(3), { h1: true, h6: false, h24: false, d7: false });
      assert.notEqual(await etag(), twoHours, "the page's ETag follows historyFrom");

      await upsertTokens(db, [{ ...tokens[4]!, fdv: '123456789', at: new Date() }]); // a change among a load for new windows
      await cover(hoursBack(30));
      await catalog.refresh(true);
      assert.equal(fullLoads, 2, 'the 6 h and 24 h windows filled: every token built again');
      await expectAnswers(hoursBack(30), { h1: true, h6: true, h24: true, d7: false });

      await cover(null); // complete
      await catalog.refresh(true);
      assert.equal(fullLoads, 3);
      await expectAnswers(null, { h1: true, h6: true, h24: true, d7: true });
      catalog.stop();
    });

    it('answers requests between slices of a chunk: a load never holds them for a whole chunk', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(600);
      await upsertTokens(db, tokens);
      const catalog = createTokenCatalog({ db, staleMs: 60_000, chunkRows: 1000 });
      await catalog.refresh(true);
      await upsertTokens(db, tokens.map((t) => ({ ...t, name: `${t.name}*`, at: new Date() })));
      const renamed = async (i: number) => (JSON.parse((await catalog.token(addressOf(i)))!.toString()) as { name: string }).name.endsWith('*');
      let loading = true;
      const states = new Set<string>();
      const watch = (async () => {
        while (loading) {
          states.add(`${await renamed(0)} ${await renamed(599)}`);
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await catalog.refresh(true);
      loading = false;
      await watch;
      assert.ok(states.has('true false'), `a request answered with the chunk's first tokens applied and its last not yet: ${[...states].join(', ')}`);
      assert.equal(await renamed(599), true);
      catalog.stop();
    });

    it('builds the search index in slices: a load is applied before the first search is answered, and what it changed is searchable', async () => {
      await resetDatabase(db);
      // Past slices of keys (1,024 tokens) and of a sort (4,096 name words): the build pauses.
      const tokens = makeTokens(3_000);
      await upsertTokens(db, tokens);
      // The build's first pause lasts until the rename is applied (however long the database takes).
      let paused!: () => void;
      const firstPause = new Promise<void>((resolve) => (paused = resolve));
      let renamed!: () => void;
      const applied = new Promise<void>((resolve) => (renamed = resolve));
      let pauses = 0;
      const searchPause = () => (++pauses === 1 ? (paused(), applied) : new Promise<void>((resolve) => setImmediate(resolve)));
      const catalog = createTokenCatalog({ db, staleMs: 60_000, searchPause });
      await catalog.refresh(true);
      await upsertTokens(db, [{ ...tokens[7]!, name: 'Zebra Finance', at: new Date() }]);
      let searched = false;
      const searching = catalog.page({ page: 1, limit: 100, search: 'Token' }).then((answer) => ((searched = true), answer));
      await firstPause; // the build has begun, and pauses
      await catalog.refresh(true); // the rename, applied while the index is built
      assert.equal(searched, false, 'the first search waits for its index');
      renamed();
      await searching;
      assert.ok(pauses > 1, `the build paused ${pauses} times`);
      const fresh = createTokenCatalog({ db, staleMs: 0 });
      assert.deepEqual(page(await catalog.page({ page: 1, limit: 10, search: 'zebra' })).data.map((t) => t.contractAddress.toLowerCase()), [addressOf(7)]);
      for (const search of ['zebra', 'Token', 'Token B', 'T1', '0x00']) {
        const query = { page: 1, limit: 100, search };
        assert.deepEqual(await catalog.page(query), await fresh.page(query), search);
      }
      catalog.stop();
      fresh.stop();
    });

    it('holds its data between checks when staleMs is long, and follows on refresh', async () => {
      await resetDatabase(db);
      await upsertTokens(db, makeTokens(3));
      const catalog = createTokenCatalog({ db, staleMs: 60_000 });
      await catalog.refresh();
      await upsertTokens(db, makeTokens(5));
      assert.equal(page(await catalog.page({ page: 1, limit: 10, order: 'name', sort: 'asc' })).meta.totalItemsCount, 3);
      await catalog.refresh(true);
      assert.equal(page(await catalog.page({ page: 1, limit: 10, order: 'name', sort: 'asc' })).meta.totalItemsCount, 5);
      assert.equal(await catalog.token(addressOf(99)), undefined);
      assert.match((await catalog.token(addressOf(4).toUpperCase().replace('0X', '0x')))!.toString(), /"contractAddress"/);
      catalog.stop();
    });

    it('loads in small chunks exactly what one query loads, full and incremental', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(17);
      await upsertTokens(db, tokens);
      const chunked = createTokenCatalog({ db, staleMs: 0, chunkRows: 3 });
      const whole = createTokenCatalog({ db, staleMs: 0, chunkRows: 1000 });
      const query = { page: 1, limit: 100, order: 'fdv', sort: 'desc' } as const;
      assert.deepEqual(await chunked.page(query), await whole.page(query));
      assert.equal(page(await chunked.page(query)).meta.totalItemsCount, 17);
      await upsertTokens(db, [0, 5, 6, 7, 16].map((i) => ({ ...tokens[i]!, fdv: `${i + 0.5}`, name: `${tokens[i]!.name}*`, at: new Date() })));
      for (const order of ['name', 'fdv', 'symbol'] as const) {
        const q = { ...query, order };
        assert.deepEqual(await chunked.page(q), await whole.page(q), order);
      }
      for (let i = 0; i < 17; i++) assert.deepEqual(await chunked.token(addressOf(i)), await whole.token(addressOf(i)));
      chunked.stop();
      whole.stop();
    });
  });
}
