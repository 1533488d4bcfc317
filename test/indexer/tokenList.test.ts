// The token-list path end to end on the in-process chain: a Uniswap Token Lists file (and the same
// entries pre-loaded) gives listed tokens their logo, makes them secure and never spam, discovers
// listed tokens that have no pool, fills in a reverting name; other chains' entries and malformed
// entries are ignored, and a list that cannot be read stops start-up with a TokenListError.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getAddress, type Contract } from 'ethers';
import request from 'supertest';
import { createChainClient } from '../../src/chain/index.ts';
import { type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { getToken } from '../oracles/index.ts';
import { readCheckpoint } from '../../src/db/indexer/index.ts';
import { createIndexer, loadTokenList, TokenListError, type TokenListEntry } from '../../src/indexer/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { runToHead } from './helpers/runToHead.ts';
import { createWorld, type World } from './helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
const LOGO = (symbol: string) => `https://tokens.example/logos/${symbol}.png`;

let world: World;
let client: ReturnType<typeof createChainClient>;
let dir: string;
let listPath: string;
let usdc: Contract;
/** Listed, one pool, fdv 10,000 USD (under the 50,000 minimum). */
let listedSmall: Contract;
/** The same numbers, unlisted (but listed for another chain id, with a logo). */
let unlistedSmall: Contract;
/** Listed, no pool anywhere. */
let poolless: Contract;
/** Listed; name() reverts; its list logoURI is not http(s). */
let revertingName: Contract;
/** Listed with 18 decimals; the contract has no decimals(). */
let noDecimals: Contract;
/** Listed, no pool, a name that would be flagged as spam if it were not listed. */
let lureName: Contract;
/** Only listed for chain id 1. */
let foreign: Contract;
/** Only in a malformed entry (decimals not a number). */
let malformed: Contract;
let startBlockTime: Date;
const START_BLOCK = 1;

const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();

before(async () => {
  world = await createWorld();
  client = createChainClient({ url: world.chain.url });
  usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 12n * e6);
  listedSmall = await world.token('Listed Small', 'LSM', 18, 1000n * e18);
  unlistedSmall = await world.token('Unlisted Small', 'USM', 18, 1000n * e18);
  poolless = await world.token('Poolless Token', 'PLS', 8, 5000n * 10n ** 8n);
  revertingName = await world.deploy('RevertingNameToken', [10n ** 24n, world.me]);
  noDecimals = await world.deploy('NoDecimalsToken', [10n ** 24n, world.me]);
  lureName = await world.token('Claim rewards at claim-rewards.xyz', 'AIRDROP', 18, 10n ** 24n);
  foreign = await world.token('Foreign Token', 'FRGN', 18, 10n ** 24n);
  malformed = await world.token('Malformed Entry', 'MAL', 18, 10n ** 24n);
  // 100 tokens against 1000 USDC: 10 USD each, 2000 USD of liquidity (above the 1000 minimum).
  for (const token of [listedSmall, unlistedSmall, revertingName, noDecimals]) {
    const pair = await world.v2Pair(token, usdc, 100n * e18, 1000n * e6);
    await world.v2Swap(pair, usdc, 10n * e6);
  }
  const header = await world.rpc<{ timestamp: string }>('eth_getBlockByNumber', [`0x${START_BLOCK.toString(16)}`, false]);
  startBlockTime = new Date(Number(header.timestamp) * 1000);

  const chainId = world.chain.chainId;
  const entry = async (c: Contract, name: string, symbol: string, decimals: number, logoURI?: string, id = chainId) => ({
    chainId: id, address: getAddress(await c.getAddress()), name, symbol, decimals, ...(logoURI ? { logoURI } : {}),
  });
  const list = {
    name: 'Indexer Test List',
    timestamp: '2025-01-01T00:00:00.000Z',
    version: { major: 1, minor: 0, patch: 0 },
    tokens: [
      await entry(usdc, 'USD Coin', 'USDC', 6, LOGO('USDC')),
      await entry(listedSmall, 'Listed Small', 'LSM', 18, LOGO('LSM')),
      await entry(unlistedSmall, 'Unlisted Small', 'USM', 18, LOGO('USM'), 1),
      await entry(poolless, 'Poolless On The List', 'PLS-LIST', 8, LOGO('PLS')),
      await entry(revertingName, 'Nameless Token', 'NONAME', 18, 'ipfs://QmNotHttp'),
      await entry(noDecimals, 'No Decimals', 'NODEC', 18, LOGO('NODEC')),
      await entry(lureName, 'Claim rewards at claim-rewards.xyz', 'AIRDROP', 18, LOGO('AIRDROP')),
      await entry(foreign, 'Foreign Token', 'FRGN', 18, LOGO('FRGN'), 1),
      null,
      { chainId, address: '0x1234', name: 'Short Address', symbol: 'SHORT', decimals: 18 },
      { ...(await entry(malformed, 'Malformed Entry', 'MAL', 18)), decimals: 'eighteen' },
    ],
  };
  dir = mkdtempSync(join(tmpdir(), 'token-list-test-'));
  listPath = join(dir, 'list.json');
  writeFileSync(listPath, JSON.stringify(list, null, 2));
});

after(async () => {
  client?.destroy();
  await world?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('loadTokenList keeps this chain\'s well-formed entries, lower-cased', async () => {
  const entries = await loadTokenList(listPath, world.chain.chainId);
  assert.deepEqual(
    entries.map((e) => e.symbol),
    ['USDC', 'LSM', 'PLS-LIST', 'NONAME', 'NODEC', 'AIRDROP'],
  );
  for (const e of entries) assert.equal(e.address, e.address.toLowerCase());
  assert.equal(entries.find((e) => e.symbol === 'NONAME')?.logoURI, null, 'a non-http logoURI is dropped');
  assert.equal(entries.find((e) => e.symbol === 'LSM')?.logoURI, LOGO('LSM'));
});

// The same expectations whether the indexer reads the file or is handed the entries.
const sources: [string, () => Promise<{ tokenListPath?: string; tokenList?: TokenListEntry[] }>][] = [
  ['a token list file (config.tokenList)', async () => ({ tokenListPath: listPath })],
  [
    'pre-loaded entries (checksummed addresses)',
    async () => ({
      tokenList: (await loadTokenList(listPath, world.chain.chainId)).map((e) => ({ ...e, address: getAddress(e.address) })),
    }),
  ],
];

for (const [label, source] of sources) {
  describe(`indexing with ${label}`, () => {
    let db: Database;
    const row = async (c: Contract) => getToken(db, await addr(c));
    const stored = async (c: Contract) => {
      const r = await row(c);
      assert.ok(r, `${await addr(c)} stored`);
      return r;
    };

    before(async () => {
      const { tokenListPath, tokenList } = await source();
      db = await openPglite();
      const indexer = createIndexer({
        db, chain: client, tokenList,
        config: world.config({
          factories: { v2: [await addr(world.v2Factory)] }, stablecoins: [await addr(usdc)],
          startBlock: START_BLOCK, batchSize: 1000, tokenList: tokenListPath ?? null,
        }),
      });
      await runToHead(indexer);
      assert.equal(indexer.status().lastError, null);
    });
    after(() => db?.close());

    it('a listed token with a pool carries the list logo and the token-list factor; under 50,000 USD of market cap it is not secure', async () => {
      const listed = await stored(listedSmall);
      assert.equal(listed.logo, LOGO('LSM'));
      assert.ok(listed.currentPrice !== null && listed.fdv !== null, 'priced');
      assert.ok(Number(listed.fdv) < 50_000, `fdv ${listed.fdv} is under the minimum`);
      assert.ok(JSON.parse(listed.securityReasons).some((r: { code: string }) => r.code === 'token-list'));
      assert.equal(listed.isSecure, false, 'the list is a factor, not an override');
      assert.equal(listed.isPossibleSpam, false);

      const unlisted = await stored(unlistedSmall);
      assert.equal(unlisted.fdv, listed.fdv, 'same numbers');
      assert.equal(unlisted.securityScore, listed.securityScore - 20, 'the token-list factor is the difference');
      assert.equal(unlisted.logo, null, 'its entry is for another chain');
      assert.equal(unlisted.isSecure, false);
      assert.equal(unlisted.isPossibleSpam, false);
    });

    it('a listed token without any pool is discovered from the list, with on-chain metadata', async () => {
      const t = await stored(poolless);
      assert.equal(t.name, 'Poolless Token', 'the contract answers, so the list is not used');
      assert.equal(t.symbol, 'PLS');
      assert.equal(t.decimals, 8);
      assert.equal(t.totalSupply, String(5000n * 10n ** 8n));
      assert.equal(t.currentPrice, null);
      assert.equal(t.fdv, null);
      assert.equal(t.logo, LOGO('PLS'));
      assert.equal(t.createdAt.toISOString(), startBlockTime.toISOString(), 'first indexed block');
      assert.equal(t.isSecure, false, 'no price: never secure');
      assert.equal(t.isPossibleSpam, false);
    });

    it('list metadata fills what the contract refuses; a listed lure name is still flagged', async () => {
      const noName = await stored(revertingName);
      assert.equal(noName.name, 'Nameless Token');
      assert.equal(noName.symbol, 'NONAME', 'the contract\'s symbol still wins');
      assert.equal(noName.logo, null, 'ipfs:// logo dropped');
      assert.ok(noName.currentPrice !== null);

      const noDec = await stored(noDecimals);
      assert.equal(noDec.decimals, 18, 'decimals from the list');
      assert.ok(noDec.currentPrice !== null, 'known decimals: priced by its pool');
      assert.equal(Number(noDec.currentPrice).toFixed(1), '10.2');

      const lure = await stored(lureName);
      assert.equal(lure.name, 'Claim rewards at claim-rewards.xyz');
      assert.equal(lure.currentPrice, null);
      assert.equal(lure.isPossibleSpam, true, 'the list does not hide a lure');
      assert.ok(JSON.parse(lure.spamReasons).length > 0);
      assert.equal(lure.isSecure, false);
    });

    it('entries for another chain id and malformed entries are ignored', async () => {
      assert.equal(await row(foreign), undefined);
      assert.equal(await row(malformed), undefined);
    });

    it('the API serves the list fields, valid against the spec', async () => {
      const app = testApp(db);
      const one = await request(app).get(`/tokens/${await addr(listedSmall)}`).expect(200);
      assert.equal(one.body.logo, LOGO('LSM'));
      assert.equal(one.body.isSecure, false);
      assert.ok(one.body.security.reasons.some((r: { code: string }) => r.code === 'token-list'));
      const all = await request(app).get('/tokens?limit=100').expect(200);
      const symbols = (all.body.data as { symbol: string }[]).map((t) => t.symbol).sort();
      assert.deepEqual(symbols, ['AIRDROP', 'LSM', 'NODEC', 'NONAME', 'PLS', 'USDC', 'USM']);
    });
  });
}

describe('a token list that cannot be used', () => {
  const cases: [string, string | null][] = [
    ['not JSON', '{"tokens": ['],
    ['no tokens array', '{"name": "x", "tokens": {}}'],
    ['JSON null', 'null'],
    ['missing file', null],
  ];
  for (const [label, content] of cases) {
    it(`${label}: start() rejects with a TokenListError and nothing is indexed`, async () => {
      const path = join(dir, `bad-${label.replace(/\W/g, '-')}.json`);
      if (content !== null) writeFileSync(path, content);
      const db = await openPglite();
      try {
        const indexer = createIndexer({ db, chain: client, config: world.config({ tokenList: path }) });
        await assert.rejects(indexer.start(), (error: unknown) => {
          assert.ok(error instanceof TokenListError, String(error));
          assert.ok(error.message.includes(path), `names the list: ${error.message}`);
          return true;
        });
        assert.equal(indexer.status().running, false);
        await assert.rejects(indexer.syncOnce(), TokenListError);
        assert.equal(await readCheckpoint(db), null);
      } finally {
        await db.close();
      }
    });
  }
});
