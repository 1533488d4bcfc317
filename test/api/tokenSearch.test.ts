// GET /tokens?search=…: matching and ranking as the spec's `search` parameter describes, checked
// against a plain scan written here from that description, combined with every other filter and
// paging; bad input answered 400 naming `search`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { upsertTokens, type Database, type TokenWrite } from '../../src/db/index.ts';
import { testApp, type TestApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const named = (i: number, symbol: string, name: string, extra: Partial<TokenWrite> = {}): TokenWrite => ({ ...makeTokens(i + 1)[i]!, address: addressOf(1000 + i), symbol, name, ...extra });

// Real-looking names and symbols (and near misses) beside the fixture's "Token A0"/"T0" ones.
const extras: TokenWrite[] = [
  named(0, 'USDC', 'USD Coin', { isPossibleSpam: false, fdv: '5000000', currentPrice: '1' }),
  named(1, 'USDT', 'Tether USD', { isPossibleSpam: false, fdv: '4000000', currentPrice: '1' }),
  named(2, 'USDC.e', 'Bridged USDC', { isPossibleSpam: false }),
  named(3, 'USDC', 'Claim your USDC at usdc-gift.example', { isPossibleSpam: true }),
  named(4, 'WETH', 'Wrapped Ether', { isPossibleSpam: false }),
  named(5, 'weETH', 'Wrapped eETH', { isPossibleSpam: false }),
  named(6, 'ETHFI', 'ether.fi governance token', { isPossibleSpam: false }),
  named(7, 'STG', 'Stargate.Finance', { isPossibleSpam: false }),
  named(8, 'ÜNI', 'Ünïcode Unicorn', { isPossibleSpam: false }),
  named(9, 'usd', 'lowercase usd', { isPossibleSpam: true }),
  named(10, 'xUSD', 'Some USD-pegged thing', { isPossibleSpam: false }),
];

type Token = { contractAddress: string; symbol: string; name: string; isPossibleSpam: boolean; isSecure: boolean; info: { liquidity: number | null } };

/** Liquidity descending, tokens without one last. */
const byLiquidity = (a: Token, b: Token) => {
  const x = a.info.liquidity;
  const y = b.info.liquidity;
  return x === y ? 0 : x === null ? 1 : y === null ? -1 : y - x;
};

/** The spec's rule, written as a scan: the group a token falls in for `term`, or undefined. */
function groupOf(t: Token, raw: string): number | undefined {
  const term = raw.trim().toLowerCase();
  if (/^0x[0-9a-f]{2,40}$/.test(term)) return t.contractAddress.toLowerCase().startsWith(term) ? 3 : undefined;
  const symbol = t.symbol.toLowerCase();
  if (symbol === term) return 0;
  if (symbol.startsWith(term)) return 1;
  const name = t.name.toLowerCase();
  for (let i = 0; i < name.length; i++) {
    const starts = /[\p{L}\p{N}]/u.test(name[i]!) && (i === 0 || !/[\p{L}\p{N}]/u.test(name[i - 1]!));
    if (starts && name.startsWith(term, i)) return 2;
  }
  return undefined;
}

/** Expected full ranking: group, spam flag, liquidity (largest first, none last), address. */
function ranked(all: Token[], term: string): string[] {
  return all
    .map((t) => ({ t, g: groupOf(t, term) }))
    .filter((x) => x.g !== undefined)
    .sort((a, b) => a.g! - b.g! || Number(a.t.isPossibleSpam) - Number(b.t.isPossibleSpam) || byLiquidity(a.t, b.t) || (a.t.contractAddress.toLowerCase() < b.t.contractAddress.toLowerCase() ? -1 : 1))
    .map((x) => x.t.contractAddress);
}

for (const target of testDatabases) {
  describe(`GET /tokens?search on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    let app: TestApp;
    let all: Token[];
    before(async () => {
      db = await target.open();
      await upsertTokens(db, [...makeTokens(120), ...extras]);
      app = testApp(db);
      all = (await Promise.all([1, 2].map((page) => request(app).get(`/tokens?limit=100&page=${page}`)))).flatMap((r) => r.body.data as Token[]);
      assert.equal(all.length, 131);
    });
    after(() => db.close());

    /** Every match of `query`, paged through with `limit`, in answer order. */
    async function everyMatch(query: string, limit = 7): Promise<string[]> {
      const out: string[] = [];
      for (let page = 1; ; page++) {
        const res = await request(app).get(`/tokens?${query}&limit=${limit}&page=${page}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        out.push(...res.body.data.map((t: Token) => t.contractAddress));
        if (page >= res.body.meta.pagesCount) {
          assert.equal(res.body.meta.totalItemsCount, out.length);
          return out;
        }
      }
    }

    const terms = ['usdc', 'USD', 'usd', ' usdc ', 'us', 'u', 'coin', 'wrapped', 'eth', 'ether', 'fi', 'finance', 'governance token', 'ünï', 'ÜNI', 'token a', 'T1', 't', 'sd', 'gift', 'nothing-like-it', '0x00000000000000000000000000000000000003e', '0x0000', `0x${addressOf(1003).slice(2).toUpperCase()}`, '0x1'];
    for (const term of terms) {
      it(`ranks "${term}" as the spec says, across pages`, async () => {
        assert.deepEqual(await everyMatch(`search=${encodeURIComponent(term)}`), ranked(all, term));
      });
    }

    it('finds real names by a word, and a dotted brand by its parts', async () => {
      const symbols = async (term: string) => (await request(app).get(`/tokens?search=${encodeURIComponent(term)}`)).body.data.map((t: Token) => t.symbol);
      assert.deepEqual((await symbols('usdc')).slice(0, 3), ['USDC', 'USDC', 'USDC.e'], 'exact symbols first, the non-spam one first');
      assert.equal((await request(app).get('/tokens?search=usdc')).body.data[0].name, 'USD Coin');
      assert.ok((await symbols('tether')).includes('USDT'));
      assert.ok((await symbols('fi')).includes('ETHFI'), 'ether.fi: "fi" starts a word');
      assert.ok(!(await symbols('sd')).includes('USDC'), '"sd" starts no word');
    });

    it('combines with isSecure, addresses, paging, and an explicit order or sort', async () => {
      const term = 'token';
      const secure = await everyMatch(`search=${term}&isSecure=true`, 5);
      assert.deepEqual(secure, ranked(all.filter((t) => t.isSecure), term));
      const picked = [addressOf(1), addressOf(2), addressOf(1004), addressOf(1000)];
      const within = await everyMatch(`search=usd&addresses=${picked.join(',')}`);
      assert.deepEqual(within, ranked(all.filter((t) => picked.includes(t.contractAddress.toLowerCase())), 'usd'));
      const byName = await everyMatch(`search=usd&order=name&sort=asc`, 3);
      const list = await everyMatch('order=name&sort=asc', 100);
      assert.deepEqual(byName, list.filter((a) => ranked(all, 'usd').includes(a)), 'order overrides the ranking');
      const bySort = await everyMatch('search=usd&sort=asc', 3);
      const fdvAsc = await everyMatch('order=fdv&sort=asc', 100);
      assert.deepEqual(bySort, fdvAsc.filter((a) => ranked(all, 'usd').includes(a)), 'sort alone orders by fdv');
    });

    it('follows new and renamed tokens once the index is built', async () => {
      const symbols = async (term: string) => (await request(app).get(`/tokens?search=${term}`)).body.data.map((t: Token) => t.symbol);
      assert.deepEqual(await symbols('zebra'), []);
      await upsertTokens(db, [named(20, 'ZEB', 'Zebra Finance', { at: new Date() }), { ...extras[7]!, symbol: 'ZEBRA', name: 'Stargate.Finance', at: new Date() }]);
      assert.deepEqual(await symbols('zeb'), ['ZEB', 'ZEBRA'], 'by symbol prefix, then address');
      assert.deepEqual(await symbols('zebra'), ['ZEBRA', 'ZEB'], 'the exact symbol first');
      assert.deepEqual(await symbols('stg'), [], 'the old symbol is gone');
      await upsertTokens(db, [{ ...extras[7]!, at: new Date() }]);
    });

    it('ranks again after liquidity and spam flags change, and after a change that moves no ranking', async () => {
      const current = async () => (await Promise.all([1, 2].map((page) => request(app).get(`/tokens?limit=100&page=${page}`)))).flatMap((r) => r.body.data as Token[]);
      assert.deepEqual(await everyMatch('search=token', 100), ranked(all, 'token'));
      const changes = [
        { ...makeTokens(120)[5]!, liquidity: '987654321', at: new Date() }, // to the top of its group
        { ...makeTokens(120)[6]!, isPossibleSpam: !makeTokens(120)[6]!.isPossibleSpam, at: new Date() }, // to the other part of its group
      ];
      await upsertTokens(db, changes);
      const now = await current();
      assert.notDeepEqual(ranked(now, 'token'), ranked(all, 'token'));
      assert.deepEqual(await everyMatch('search=token', 100), ranked(now, 'token'));
      // a change of the JSON alone (the logo) keeps the ranking, and answers the new JSON
      await upsertTokens(db, [{ ...changes[0]!, logo: 'https://example.org/moved.png', at: new Date() }]);
      const logos = (await request(app).get(`/tokens?search=${encodeURIComponent(now.find((t) => t.contractAddress.toLowerCase() === changes[0]!.address.toLowerCase())!.symbol)}`)).body.data.map((t: { logo: string | null }) => t.logo);
      assert.ok(logos.includes('https://example.org/moved.png'));
      assert.deepEqual(await everyMatch('search=token', 100), ranked(now, 'token'));
      await upsertTokens(db, makeTokens(120).slice(5, 7).map((t) => ({ ...t, at: new Date() })));
    });

    it('answers no match with an empty page', async () => {
      const res = await request(app).get('/tokens?search=zzzz-nothing');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { data: [], meta: { page: 1, limit: 50, totalItemsCount: 0, pagesCount: 0 } });
    });

    for (const [query, why] of [
      ['search=', 'empty'],
      ['search=%20%20%20', 'only spaces'],
      [`search=${'a'.repeat(65)}`, '65 characters'],
      [`search=%20${'a'.repeat(64)}%20`, 'fine: 64 after trimming'],
      ['search=usd&search=usdc', 'repeated'],
      ['search', 'no value'],
    ] as const) {
      it(`${why.startsWith('fine') ? 'accepts' : 'rejects'} search: ${why}`, async () => {
        const res = await request(app).get(`/tokens?${query}`);
        if (why.startsWith('fine')) return assert.equal(res.status, 200);
        assert.equal(res.status, 400);
        assert.ok(res.body.errors.some((e: { field: string }) => e.field === 'search'), JSON.stringify(res.body.errors));
      });
    }
  });
}
