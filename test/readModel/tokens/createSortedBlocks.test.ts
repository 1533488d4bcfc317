// The block list against a plain sorted array: the same items in the same order, slices at every
// boundary, through thousands of inserts and removals that split and empty blocks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSortedBlocks } from '../../../src/readModel/tokens/createSortedBlocks.ts';

type Item = { key: number; id: number };
const compare = (a: Item, b: Item) => a.key - b.key || a.id - b.id;

describe('sorted blocks', () => {
  it('holds what a sorted array holds through inserts and removals, and slices alike', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    let model: Item[] = Array.from({ length: 3000 }, (_, id) => ({ key: Math.floor(random() * 500), id })).sort(compare);
    const list = createSortedBlocks(model, compare);
    let nextId = 3000;
    for (let step = 0; step < 6000; step++) {
      if (random() < (step < 3000 ? 0.7 : 0.2) || model.length === 0) {
        // many at one key (a block splits), the rest spread
        const item = { key: step % 3 === 0 ? 250 : Math.floor(random() * 500), id: nextId++ };
        list.insert(item);
        model.push(item);
        model.sort(compare);
      } else {
        const item = model[Math.floor(random() * model.length)]!;
        assert.equal(list.remove(item), true);
        model = model.filter((x) => x !== item);
      }
      if (step % 500 === 0 || step > 5990) {
        assert.equal(list.length, model.length);
        assert.deepEqual(list.toArray(), model);
        for (const [start, end] of [[0, 10], [511, 513], [1024, 1100], [model.length - 5, model.length + 10], [-3, 2], [40, 40], [model.length, model.length + 1]] as const) {
          assert.deepEqual(list.slice(start, end), model.slice(Math.max(0, start), end), `${start}..${end} at step ${step}`);
        }
      }
    }
    // an item that is not there (equal keys, another object) is not removed
    const first = model[0]!;
    assert.equal(list.remove({ ...first }), false);
    for (const item of [...model]) assert.equal(list.remove(item), true);
    assert.equal(list.length, 0);
    assert.deepEqual(list.slice(0, 5), []);
    list.insert({ key: 1, id: 1 });
    assert.deepEqual(list.toArray(), [{ key: 1, id: 1 }]);
  });
});
