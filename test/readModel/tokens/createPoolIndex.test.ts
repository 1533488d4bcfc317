// The pool index kept up by rows changed since it was built: every page and lookup equal to a
// model of all rows written so far, through many updates and past its rebuilds; an index answers
// as it did after a newer one was made from it; an update costs the rows changed, not every pool.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PoolRow } from '../../../src/db/index.ts';
import { createPoolIndex, type PoolIndex } from '../../../src/readModel/tokens/createPoolIndex.ts';

const hex = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const TOKENS = 40;

function pool(i: number, liquidity: number | null, swaps24h = 0): PoolRow {
  const token0 = hex(1 + (i % TOKENS));
  const token1 = hex(1 + ((i * 7 + 3) % TOKENS));
  return {
    address: hex(1_000_000 + i), checksumAddress: hex(1_000_000 + i), dex: hex(5), family: 'uniswap-v2', fee: 3000, stable: null, hooks: null,
    priceSourceExclusion: null, token0Native: false, token1Native: false, token0, token0Checksum: token0, token0Symbol: 'A', token1, token1Checksum: token1, token1Symbol: 'B',
    liquidity: liquidity === null ? null : liquidity.toFixed(2), price: '1', volume24h: '0', swaps24h,
  };
}

/** The model: a token's pools are the rows naming it, liquidity descending (none last), then address. */
function modelPage(rows: ReadonlyMap<string, PoolRow>, token: string) {
  const mine = [...rows.values()].filter((r) => r.token0 === token || r.token1 === token);
  mine.sort((a, b) => {
    if (a.liquidity !== b.liquidity) {
      if (a.liquidity === null || b.liquidity === null) return a.liquidity === null ? 1 : -1;
      if (Number(a.liquidity) !== Number(b.liquidity)) return Number(b.liquidity) - Number(a.liquidity);
    }
    return a.address < b.address ? -1 : 1;
  });
  return { addresses: mine.map((r) => r.checksumAddress), swaps: mine.map((r) => r.swaps24h), total: mine.length };
}

function assertLike(index: PoolIndex, rows: ReadonlyMap<string, PoolRow>, label: string): void {
  for (let t = 1; t <= TOKENS; t++) {
    const token = hex(t);
    const page = JSON.parse(index.page(token, 1, 100)) as { data: { address: string; swaps24h: number }[]; meta: { totalItemsCount: number } };
    const model = modelPage(rows, token);
    assert.deepEqual(page.data.map((p) => p.address), model.addresses.slice(0, 100), `${label}: ${token}`);
    assert.deepEqual(page.data.map((p) => p.swaps24h), model.swaps.slice(0, 100), `${label}: ${token} swaps`);
    assert.equal(page.meta.totalItemsCount, model.total);
  }
  for (const [address, row] of rows) assert.equal(index.get(address), row);
}

describe('pool index', () => {
  it('answers like a model of every row written, through updates, additions and rebuilds; an older index is unchanged', () => {
    const rows = new Map<string, PoolRow>();
    for (let i = 0; i < 600; i++) rows.set(hex(1_000_000 + i), pool(i, i % 9 === 0 ? null : (i * 37) % 1000));
    let index = createPoolIndex([...rows.values()]);
    assertLike(index, rows, 'built');
    let step = 0;
    for (let round = 0; round < 12; round++) {
      const before = index;
      const beforeRows = new Map(rows);
      // replaced (liquidity and swaps move, one loses its liquidity) and new pools, more each round:
      // past a share of the base the index builds again
      const writes = Array.from({ length: 5 + round * 20 }, (_, k) => {
        step++;
        const i = (step * 131) % (600 + round * 10);
        return pool(i, (step * 53) % 7 === 0 ? null : (step * 17) % 1000, step);
      });
      for (const w of writes) rows.set(w.address, w);
      index = index.with(writes);
      assertLike(index, rows, `round ${round}`);
      assertLike(before, beforeRows, `round ${round}, the index before`);
    }
  });

  it('makes an index with a few changed rows without going through every pool', () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => pool(i, i));
    let index = createPoolIndex(rows);
    const started = performance.now();
    for (let k = 0; k < 300; k++) index = index.with([pool(k % 1000, k, k)]);
    const ms = performance.now() - started;
    // building from every pool took ~20 ms per update here (6 s for these 300)
    process.stdout.write(`# 300 updates of a 40,000-pool index: ${Math.round(ms)} ms\n`);
    assert.ok(ms < 1000, `300 updates of a 40,000-pool index took ${Math.round(ms)} ms`);
    assert.equal(index.get(hex(1_000_000 + 299))!.swaps24h, 299);
  });
});
