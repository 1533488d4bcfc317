// Packed histories read back exactly as they were set (prices as their JSON text, hours of any
// spacing, a null current price, no points), count what they hold against the bound the way
// estimatedBytes does, and forget the oldest first with a second chance for one asked for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPackedHistories, estimatedBytes, type History } from '../../../src/readModel/prices/createPackedHistories.ts';
import type { Json } from '../../../src/readModel/json.ts';

const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
const checksum = (i: number) => `0x${i.toString(16).padStart(40, 'A')}`;
const price = (x: number) => String(x) as Json<number>;

function history(i: number): History {
  const n = i % 30;
  const first = 490_000 + (i % 11);
  // every 7th history starts with a point carried from far back (a step past 16 bits)
  let hour = first;
  const hours = Array.from({ length: n }, (_, k) => (i % 7 === 0 && k === 0 ? first - 100_000 : (hour += 1 + (k % 3))));
  return {
    checksum: checksum(i),
    currentPrice: i % 5 === 0 ? null : price(1 / (i + 3)),
    priceUpdatedAt: i % 5 === 0 ? null : 1_764_000_000_000 + i,
    hours,
    prices: hours.map((_, k) => price(((i + 1) * (k + 1)) / 1e9 + k * 1e21)),
  };
}

describe('createPackedHistories', () => {
  it('reads back every history as it was set, across replacements and slot reuse', () => {
    const held = createPackedHistories();
    const expected = new Map<string, History>();
    for (let round = 0; round < 3; round++) {
      for (let i = round; i < 2500; i += round + 1) {
        const h = history(i * (round + 1));
        held.set(address(i), h);
        expected.set(address(i), h);
      }
    }
    held.evict(held.bytes - 1); // forgets at least one: its slot is reused below
    for (const a of expected.keys()) if (!held.has(a)) expected.delete(a);
    held.set(address(9999), history(9999));
    expected.set(address(9999), history(9999));
    assert.equal(held.size, expected.size);
    let bytes = 0;
    let points = 0;
    for (const [a, h] of expected) {
      assert.deepEqual(held.get(a), h, a);
      bytes += estimatedBytes(h);
      points += h.hours.length;
    }
    assert.equal(held.bytes, bytes, 'the bytes counted are the estimates of what is held');
    assert.equal(held.points(), points);
    held.clear();
    assert.equal(held.size, 0);
    assert.equal(held.bytes, 0);
    assert.equal(held.get(address(9999)), undefined);
  });

  it('forgets the oldest first, but one asked for since eviction last passed it gets a second chance', () => {
    const held = createPackedHistories();
    for (let i = 1; i <= 4; i++) held.set(address(i), history(i));
    const size = estimatedBytes(history(1));
    held.get(address(1), true); // asked for: survives one pass
    held.get(address(2)); // read without asking (a load's update): no mark
    held.evict(held.bytes - size); // one must go: 1 is spared (moved to the end), 2 goes
    assert.deepEqual([...held.addresses()], [address(3), address(4), address(1)]);
    held.set(address(3), history(3), true); // set again as last (a miss read again)
    assert.deepEqual([...held.addresses()], [address(4), address(1), address(3)]);
    held.evict(0);
    assert.equal(held.size, 0);
  });
});
