// Hostile tokens (reverting name, bytes32 metadata, 255 decimals, no decimals) are stored with
// what could be read, flagged, and never stop the indexer; with and without Multicall3.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Contract } from 'ethers';
import { createChainClient } from '../../src/chain/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { getToken } from '../oracles/index.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { runToHead } from './helpers/runToHead.ts';
import { createWorld } from './helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;

test('hostile tokens do not stop the indexer', async (t) => {
  const world = await createWorld();
  const client = createChainClient({ url: world.chain.url });
  t.after(async () => {
    client.destroy();
    await world.stop();
  });
  const usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 12n * e6);
  const hostile: Record<string, Contract> = {
    revertingName: await world.deploy('RevertingNameToken', [10n ** 24n, world.me]),
    bytes32: await world.deploy('Bytes32MetadataToken', [10n ** 24n, world.me]),
    maxDecimals: await world.deploy('MaxDecimalsToken', [10n ** 30n, world.me]),
    noDecimals: await world.deploy('NoDecimalsToken', [10n ** 24n, world.me]),
  };
  const spam = await world.token('Visit claim-rewards.xyz', 'AIRDROP', 18, 10n ** 24n);
  for (const token of [...Object.values(hostile), spam]) {
    const pair = await world.v2Pair(token, usdc, 10_000n * e18, 50_000n * e6);
    await world.v2Swap(pair, usdc, 100n * e6);
    await world.v2Swap(pair, token, 10n * e18);
  }
  const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();

  for (const multicall3 of [world.config().multicall3, null]) {
    const db = await openPglite();
    const indexer = createIndexer({
      db, chain: client,
      config: world.config({ factories: { v2: [await addr(world.v2Factory)] }, stablecoins: [await addr(usdc)], multicall3, batchSize: 10 }),
    });
    await runToHead(indexer);
    assert.equal(indexer.status().lastError, null);
    const row = async (c: Contract) => {
      const r = await getToken(db, await addr(c));
      assert.ok(r, 'stored');
      return r;
    };
    const noName = await row(hostile.revertingName!);
    assert.equal(noName.name, '');
    assert.equal(noName.symbol, 'NONAME');
    assert.equal(noName.decimals, 18);
    assert.ok(noName.currentPrice !== null, 'still priced by its pool');
    assert.equal(noName.swaps, 2);

    const b32 = await row(hostile.bytes32!);
    assert.equal(b32.name, 'Maker Classic');
    assert.equal(b32.symbol, 'MKRC');
    assert.equal(b32.decimals, 18);

    const dec255 = await row(hostile.maxDecimals!);
    assert.equal(dec255.decimals, 255);
    assert.equal(dec255.currentPrice, null, 'absurd decimals are never priced');
    assert.equal(dec255.isPossibleSpam, false, 'unpriced is not spam');

    const noDec = await row(hostile.noDecimals!);
    assert.equal(noDec.name, 'No Decimals');
    assert.equal(noDec.decimals, 0);
    assert.equal(noDec.currentPrice, null, 'unknown decimals are never priced');
    assert.equal(noDec.isPossibleSpam, false, 'unpriced is not spam');
    assert.equal(noDec.swaps, 2);

    const lure = await row(spam);
    assert.ok(lure.currentPrice !== null, 'priced by a deep pool');
    assert.equal(lure.isPossibleSpam, true, 'but its name carries a domain and a lure');
    assert.equal(lure.isSecure, false);
    await db.close();
  }
});
