// The slab keeps every live text's exact UTF-8 bytes through replacements, growth and
// compaction, and keeps garbage under half the live bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toJson } from '../../../src/readModel/json.ts';
import { createTextSlab, type SlabSpan, type TextParts } from '../../../src/readModel/tokens/createTextSlab.ts';

type Item = SlabSpan & { id: number };
const item = (id: number): Item => ({ id, offset: 0, length: 0, stored: 0 });
/** Pieces own, shared, own, …: `shared` are the shared ones. */
const parts = (...pieces: string[]) => pieces as unknown as TextParts<unknown>;
const text = (id: number, round: number) => toJson({ id, round, name: `Ünïcode 🚀 ${'x'.repeat(id % 700)}` });

describe('createTextSlab', () => {
  it('gives back each text as it was put, across growth, replacements and compaction', () => {
    const slab = createTextSlab<Item, unknown>();
    const items = Array.from({ length: 2000 }, (_, i) => item(i));
    const expected = new Map<Item, string>();
    for (let round = 0; round < 6; round++) {
      // every round replaces a different share of the items, and frees a few for good
      for (const it of items) {
        if (it.id % (round + 1) !== 0) continue;
        if (it.id % 97 === round) {
          slab.free(it);
          expected.delete(it);
          continue;
        }
        slab.put(it, text(it.id, round));
        expected.set(it, text(it.id, round));
      }
      const { live, used, capacity } = slab.stats();
      assert.equal(live, [...expected.values()].reduce((n, t) => n + Buffer.byteLength(t), 0), `round ${round}: live bytes`);
      assert.ok(used - live <= live / 2 + 64 * 1024, `round ${round}: garbage ${used - live} against live ${live}`);
      assert.ok(used <= capacity);
      for (const [it, t] of expected) assert.equal(slab.bytes(it).toString('utf8'), t, `round ${round}: item ${it.id}`);
    }
  });

  it('copies texts into a target buffer and hands out copies it no longer owns', () => {
    const slab = createTextSlab<Item, unknown>();
    const a = item(1);
    const b = item(2);
    slab.put(a, toJson('é'));
    slab.put(b, toJson([1, 2]));
    const target = Buffer.alloc(16, 0x20);
    const end = slab.copy(b, target, slab.copy(a, target, 1));
    assert.equal(target.subarray(0, end).toString(), ' "é"[1,2]');
    const copy = slab.bytes(a);
    copy[0] = 0x78;
    assert.equal(slab.bytes(a).toString(), '"é"', 'a copy, not a view');
    const { capacity } = slab.stats();
    slab.clear();
    assert.deepEqual(slab.stats(), { live: 0, used: 0, capacity, shared: { pieces: 0, bytes: 0 } }, 'cleared, its buffer kept');
  });

  it('stores each distinct shared piece once, splices it back, and forgets it when no text refers to it', () => {
    const slab = createTextSlab<Item, unknown>();
    const reason = (k: number) => JSON.stringify({ code: 'token-age', detail: `First seen ${k} days ago — ✓`, impact: 10 });
    const textOf = (id: number, k: number) => parts(`{"id":${id},"reasons":[`, reason(k), ',', reason(k + 1), `],"name":"T ${id} 🚀"}`);
    const items = Array.from({ length: 300 }, (_, i) => item(i));
    for (const it of items) slab.put(it, textOf(it.id, it.id % 5));
    const joined = (it: Item, k: number) => textOf(it.id, k).join('');
    for (const it of items) {
      assert.equal(slab.bytes(it).toString(), joined(it, it.id % 5));
      assert.equal(it.length, Buffer.byteLength(joined(it, it.id % 5)));
      assert.ok(it.stored < it.length, 'references are shorter than the pieces');
    }
    assert.equal(slab.stats().shared.pieces, 6, 'reasons 0..5, once each');
    // a page: several texts copied one after another
    const page = Buffer.alloc(items.slice(0, 40).reduce((n, it) => n + it.length, 0));
    let at = 0;
    for (const it of items.slice(0, 40)) at = slab.copy(it, page, at);
    assert.equal(at, page.length);
    assert.equal(page.toString(), items.slice(0, 40).map((it) => joined(it, it.id % 5)).join(''));
    // a token whose reasons change refers to the new piece; the old one goes once nothing refers to it
    for (const it of items) if (it.id % 5 === 0) slab.put(it, textOf(it.id, 7));
    assert.equal(slab.stats().shared.pieces, 7, 'reason 0 gone (only items with k = 0 used it), 7 and 8 new');
    for (const it of items) assert.equal(slab.bytes(it).toString(), joined(it, it.id % 5 === 0 ? 7 : it.id % 5));
    for (const it of items) slab.free(it);
    assert.deepEqual(slab.stats().shared, { pieces: 0, bytes: 0 });
    assert.equal(slab.stats().live, 0);
    // ids and bytes are used again, across the compactions of both buffers
    for (let round = 0; round < 40; round++) {
      for (const it of items) slab.put(it, textOf(it.id, round * 3 + (it.id % 4)));
      for (const it of items) assert.equal(slab.bytes(it).toString(), joined(it, round * 3 + (it.id % 4)), `round ${round}`);
      assert.equal(slab.stats().shared.pieces, 5);
    }
  });

  it('keeps a shared piece inline when another one with the same hash is held', () => {
    // two texts with the same 32-bit FNV-1a hash (found once by a birthday search over `reason ${i}`)
    const fnv = (t: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
      return h | 0;
    };
    const pair = ['{"detail":"reason 761017"}', '{"detail":"reason 1293180"}'] as const;
    assert.equal(fnv(pair[0]), fnv(pair[1]));
    const slab = createTextSlab<Item, unknown>();
    const [a, b] = [item(1), item(2)];
    slab.put(a, parts('[', pair[0], ']'));
    slab.put(b, parts('[', pair[1], ']'));
    assert.equal(slab.bytes(a).toString(), `[${pair[0]}]`);
    assert.equal(slab.bytes(b).toString(), `[${pair[1]}]`);
    assert.equal(slab.stats().shared.pieces, 1);
    assert.equal(b.stored, b.length, 'b holds its piece itself');
  });
});
