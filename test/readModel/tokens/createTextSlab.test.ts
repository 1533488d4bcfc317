// The slab keeps every live text's exact UTF-8 bytes through replacements, growth and
// compaction, holds at most 8/7 of the live bytes plus the segment being filled, and never
// allocates more than a segment at a time unless one text is longer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toJson } from '../../../src/readModel/json.ts';
import { MAX_GARBAGE_SHARE, SEGMENT_BYTES, createTextSlab, type SlabItem } from '../../../src/readModel/tokens/createTextSlab.ts';

type Item = SlabItem & { id: number };
const item = (id: number): Item => ({ id, slot: id });
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
      assert.ok(used - live <= live / 2 + SEGMENT_BYTES, `round ${round}: garbage ${used - live} against live ${live}`);
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
    slab.clear();
    assert.deepEqual(slab.stats(), { live: 0, used: 0, capacity: 0, segments: 0 }, 'cleared, every segment let go');
  });

  it('copies a text with a splice: bytes before it, the inserted bytes, bytes after the dropped ones', () => {
    const slab = createTextSlab<Item, unknown>();
    const a = item(1);
    slab.put(a, toJson({ é: null, z: 1 })); // {"é":null,"z":1}: "null" at byte 6 (é is two bytes)
    const insert = Buffer.from('"2026"');
    const target = Buffer.alloc(40, 0x20);
    const end = slab.copySpliced(a, { at: 6, drop: 4, insert }, target, 2);
    assert.equal(target.subarray(0, end).toString(), '  {"é":"2026","z":1}');
    assert.equal(slab.length(a), Buffer.byteLength('{"é":null,"z":1}'));
    assert.equal(slab.copySpliced(a, { at: 0, drop: 0, insert: Buffer.alloc(0) }, target, 0), slab.length(a), 'an empty splice copies the text');
    assert.throws(() => slab.copySpliced(a, { at: slab.length(a) - 2, drop: 4, insert }, target, 0), RangeError, 'a splice past the end');
  });

  it('compacts a segment once it is mostly garbage: 8/7 of the live bytes at most, whatever the churn', () => {
    const slab = createTextSlab<Item, unknown>();
    const items = Array.from({ length: 24_000 }, (_, i) => item(i));
    const expected = new Map<Item, string>();
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const it of items) {
      slab.put(it, text(it.id, 0));
      expected.set(it, text(it.id, 0));
    }
    let most = 0;
    for (let round = 1; round <= 8; round++) {
      // a random third of the items replaced, some with longer or shorter texts
      for (const it of items) {
        if (random() > 1 / 3) continue;
        const t = text(it.id + round * 131, round);
        slab.put(it, t);
        expected.set(it, t);
      }
      const { live, capacity, segments } = slab.stats();
      assert.ok(capacity <= live / (1 - MAX_GARBAGE_SHARE) + 2 * SEGMENT_BYTES, `round ${round}: capacity ${capacity} for ${live} live bytes`);
      most = Math.max(most, segments);
    }
    for (const [it, t] of expected) assert.equal(slab.bytes(it).toString('utf8'), t, `item ${it.id}`);
    assert.ok(most * SEGMENT_BYTES <= slab.stats().live / (1 - MAX_GARBAGE_SHARE) + 2 * SEGMENT_BYTES, 'never more segments than the bound');
  });

  it('gives a text longer than a segment one of its own, and lets it go with the text', () => {
    const slab = createTextSlab<Item, unknown>();
    const small = item(1);
    const big = item(2);
    slab.put(small, toJson('small'));
    const long = toJson('é'.repeat(SEGMENT_BYTES));
    slab.put(big, long);
    assert.equal(slab.bytes(big).toString(), long);
    assert.equal(slab.stats().capacity, SEGMENT_BYTES + Buffer.byteLength(long));
    slab.put(small, toJson('small again')); // appended after the long text: a new segment
    slab.free(big);
    assert.equal(slab.bytes(small).toString(), '"small again"');
    assert.equal(slab.stats().live, Buffer.byteLength('"small again"'));
    assert.ok(slab.stats().capacity <= 2 * SEGMENT_BYTES, 'the long text\'s segment let go');
  });
});
