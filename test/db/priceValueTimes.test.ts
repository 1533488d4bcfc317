// When each token's current price value began (the token's priceUpdatedAt), and each token's latest
// price change, read from its stored price changes, against a model that walks each token's changes
// in block order: random sequences with repeated values, equal times on different blocks, times out
// of order (an older block's time fixed while a newer one is still interpolated, as the moving
// window edges leave a bucket mid-fix), no-price (null) changes and source changes that keep the value.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/index.ts';
import { loadPricesAt, loadPriceValueTimes, saveIndexerTokens, savePriceChanges, type PriceChange } from '../../src/db/indexer/index.ts';
import { testDatabases } from '../helpers/testDatabases.ts';

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const T0 = Date.parse('2026-02-01T00:00:00.000Z');

function changesOf(token: string, next: () => number): PriceChange[] {
  const out: PriceChange[] = [];
  let time = T0;
  const count = 1 + Math.floor(next() * 40);
  for (let block = 1; block <= count * 3; block += 1 + Math.floor(next() * 3)) {
    if (out.length === count) break;
    const step = next();
    if (step < 0.6) time += 1000 * (1 + Math.floor(next() * 5));
    else if (step < 0.75) time -= 1000 * (1 + Math.floor(next() * 5)); // out of order
    // else the same second as the previous block
    const value = next();
    const price = value < 0.1 ? null : value < 0.6 ? '1.5' : value < 0.8 ? '2' : '2.25';
    out.push({ token, blockNumber: block, price, observedAt: new Date(time), source: next() < 0.5 ? '0xpool-a' : '0xpool-b' });
  }
  return out;
}

/** The model: the earliest change of the newest run of equal values, in block order. */
function valueSince(changes: readonly PriceChange[]): Date {
  const sorted = [...changes].sort((x, y) => x.blockNumber - y.blockNumber);
  let i = sorted.length - 1;
  while (i > 0 && sorted[i - 1]!.price === sorted[i]!.price) i--;
  return sorted[i]!.observedAt;
}

for (const target of testDatabases) {
  describe(`price value times (${target.name})`, { skip: target.skip }, () => {
    let db: Database;
    const tokens = Array.from({ length: 60 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    const byToken = new Map<string, PriceChange[]>();
    before(async () => {
      db = await target.open();
      const next = random(7);
      await saveIndexerTokens(db, tokens.map((address) => ({
        address, name: address, symbol: 'T', decimals: 18, decimalsKnown: true, listed: false, logo: null, totalSupply: 0n, supplyBlock: 0,
        firstSeenBlock: 0, firstSeenAt: new Date(T0), circulatingSupply: null, circulatingBlock: null, circulatingReadAt: null,
      })));
      for (const token of tokens.slice(0, 55)) byToken.set(token, changesOf(token, next)); // the last 5: no change stored
      await savePriceChanges(db, [...byToken.values()].flat());
    });
    after(() => db?.close());

    it('equals the model for every token with changes, and omits the tokens without', async () => {
      const times = await loadPriceValueTimes(db);
      assert.equal(times.size, byToken.size);
      for (const [token, changes] of byToken) assert.deepEqual(times.get(token), valueSince(changes), token);
    });

    it('the latest change is the newest block\'s, whatever its time', async () => {
      let outOfOrder = 0;
      for (const lookup of [await loadPricesAt(db, null), await loadPricesAt(db, null, tokens)]) {
        assert.equal(lookup.size, byToken.size);
        for (const [token, changes] of byToken) {
          const newest = changes.reduce((x, y) => (y.blockNumber > x.blockNumber ? y : x));
          const latestTime = changes.reduce((x, y) => (y.observedAt > x.observedAt ? y : x));
          if (latestTime.observedAt > newest.observedAt) outOfOrder++;
          assert.equal(lookup.get(token)?.blockNumber, newest.blockNumber, token);
        }
      }
      assert.ok(outOfOrder > 5, `tokens whose newest block does not hold the latest time: ${outOfOrder}`);
    });
  });
}
