// The slab keeps every live text's exact UTF-8 bytes through replacements, growth and
// compaction, and keeps garbage under half the live bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toJson } from '../../../src/readModel/json.ts';
import { createTextSlab, type SlabSpan } from '../../../src/readModel/tokens/createTextSlab.ts';

type Item = SlabSpan & { id: number };
const item = (id: number): Item => ({ id, offset: 0, length: 0 });
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
    assert.deepEqual(slab.stats(), { live: 0, used: 0, capacity }, 'cleared, its buffer kept');
  });
});
