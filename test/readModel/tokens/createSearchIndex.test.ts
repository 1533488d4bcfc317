// The search index loaded at once finds what a scan of the tokens finds, in every group, small
// and large slots alike, and keeps finding it after tokens change one at a time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSearchIndex, type MatchRange } from '../../../src/readModel/tokens/createSearchIndex.ts';
import { sortInSlices } from '../../../src/readModel/tokens/sortInSlices.ts';

const WORDS = ['usd', 'Usd', 'coin', 'wrapped', 'ether', 'émoji', 'ZEBRA', 'zeb', 'a', 'b\u0000c', '🚀moon'];
const tokens = Array.from({ length: 400 }, (_, i) => ({
  slot: i,
  address: `0x${(i * 2654435761 >>> 0).toString(16).padStart(8, '0')}${'ab'.repeat(16)}`,
  symbol: [WORDS[i % WORDS.length]!, `${WORDS[(i * 3) % WORDS.length]!}${i % 4}`][i % 2]!,
  name: `${WORDS[(i * 5) % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}-${WORDS[i % 3]}`,
}));

/** The model: each group's matching slots, by scanning (a slot matched twice is in both groups). */
function scan(list: typeof tokens, raw: string): number[][] {
  const term = raw.toLowerCase();
  if (/^0x[0-9a-f]{2,40}$/.test(term)) return [list.filter((t) => t.address.startsWith(term)).map((t) => t.slot).sort((a, b) => a - b)];
  const exact = list.filter((t) => t.symbol.toLowerCase() === term);
  const prefix = list.filter((t) => t.symbol.toLowerCase() !== term && t.symbol.toLowerCase().startsWith(term));
  const word = list.filter((t) => {
    const name = t.name.toLowerCase();
    return [...name].some((_, i, chars) => {
      const at = chars.slice(0, i).join('').length;
      const starts = /[\p{L}\p{N}]/u.test(chars[i]!) && (i === 0 || !/[\p{L}\p{N}]/u.test(chars[i - 1]!));
      return starts && name.startsWith(term, at);
    });
  });
  return [exact, prefix, word].map((g) => g.map((t) => t.slot).sort((a, b) => a - b));
}

const found = (ranges: MatchRange[]) => ranges.map((r) => [...new Set(r.slots.slice(r.from, r.to))].sort((a, b) => a - b));
const terms = ['usd', 'us', 'u', 'coin', 'zeb', 'zebra', 'émo', '🚀', 'b', 'c', 'eth', '0xab', '0x0000', 'nothing'];

describe('search index', () => {
  for (const [label, offset] of [['slots from 0', 0], ['slots past 2^21', 2 ** 21 + 5]] as const) {
    it(`finds what a scan finds after a load: ${label}`, () => {
      const list = tokens.map((t) => ({ ...t, slot: t.slot + offset }));
      const index = createSearchIndex();
      index.load(list);
      for (const term of terms) assert.deepEqual(found(index.find(term)), scan(list, term), term);
      // changed one at a time
      index.set(list[3]!.slot, { ...list[3]!, symbol: 'ZEBRA', name: 'Zebra Finance' });
      list[3] = { ...list[3]!, symbol: 'ZEBRA', name: 'Zebra Finance' };
      for (const term of ['zeb', 'zebra', 'fin', WORDS[3]!]) assert.deepEqual(found(index.find(term)), scan(list, term), term);
    });
  }

  it('loaded in slices, holds the same sorted keys as loaded at once and finds the same', async () => {
    // More tokens than a slice of keys (1,024) and name words past a sort slice, so both pause.
    const many = Array.from({ length: 9_000 }, (_, i) => ({ ...tokens[i % tokens.length]!, slot: i, address: `0x${(i * 2654435761 >>> 0).toString(16).padStart(8, '0')}${(i % 7).toString().repeat(32)}` }));
    const once = createSearchIndex();
    once.load(many);
    const sliced = createSearchIndex();
    let pauses = 0;
    await sliced.loadInSlices(many, async () => void pauses++);
    assert.ok(pauses >= 4, `paused ${pauses} times`);
    assert.deepEqual(sliced.slotArrays(), once.slotArrays());
    for (const term of terms) assert.deepEqual(sliced.find(term), once.find(term), term);
  });
});

describe('sortInSlices', () => {
  it('gives the permutation a one-call sort gives, pausing between slices, for lengths around the slice', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) % 50);
    for (const n of [0, 1, 5, 64, 65, 200, 256, 1_000]) {
      const keys = Array.from({ length: n }, () => `k${random()}`); // many equal keys: ties by index
      const compare = (a: number, b: number) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b);
      const expected = Array.from({ length: n }, (_, i) => i).sort(compare);
      let pauses = 0;
      const got = await sortInSlices(n, compare, async () => void pauses++, 64);
      assert.deepEqual([...got], expected, `n ${n}`);
      if (n > 128) assert.ok(pauses >= Math.floor(n / 64), `n ${n}: ${pauses} pauses`);
    }
  });
});
