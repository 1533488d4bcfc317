// The arena keeps every live record's exact bytes through replacements, frees, slot reuse and
// compaction, and holds at most 8/7 of the live bytes plus the segment being filled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ARENA_SEGMENT_BYTES, createRecordArena } from '../../src/readModel/createRecordArena.ts';

const record = (slot: number, round: number) => Buffer.from(`${slot}:${round}:${'x'.repeat((slot * 7 + round * 13) % 900)}`);

describe('createRecordArena', () => {
  it('gives back each record as it was put, across growth, replacements, frees and compaction', () => {
    const arena = createRecordArena();
    const expected = new Map<number, Buffer>();
    const read = (slot: number) => Buffer.from(arena.buffer(slot).subarray(arena.offset(slot), arena.offset(slot) + arena.length(slot)));
    for (let round = 0; round < 8; round++) {
      // slots beyond the first columns' size (1,024), a different share replaced each round, a few freed
      for (let slot = 0; slot < 3000; slot++) {
        if (slot % (round + 1) !== 0) continue;
        if (slot % 89 === round) {
          arena.free(slot);
          expected.delete(slot);
          continue;
        }
        const bytes = record(slot, round);
        arena.put(slot, bytes.length, (buf, at) => bytes.copy(buf, at));
        expected.set(slot, bytes);
      }
      const { live, capacity } = arena.stats();
      assert.equal(live, [...expected.values()].reduce((n, b) => n + b.length, 0), `round ${round}: live bytes`);
      assert.ok(capacity <= (live * 8) / 7 + 2 * ARENA_SEGMENT_BYTES, `round ${round}: ${capacity} bytes of segments for ${live} live`);
      for (const [slot, bytes] of expected) assert.deepEqual(read(slot), bytes, `round ${round}: slot ${slot}`);
    }
    arena.free(5000); // a slot never used
    arena.clear();
    assert.deepEqual(arena.stats(), { live: 0, used: 0, capacity: 0, segments: 0 });
  });

  it('gives a record longer than a segment a segment of its own, and lets it go when freed', () => {
    const arena = createRecordArena();
    const long = Buffer.alloc(ARENA_SEGMENT_BYTES + 10, 0x61);
    arena.put(0, 3, (buf, at) => buf.write('abc', at));
    arena.put(1, long.length, (buf, at) => long.copy(buf, at));
    arena.put(2, 3, (buf, at) => buf.write('def', at));
    assert.equal(arena.buffer(1).subarray(arena.offset(1), arena.offset(1) + arena.length(1)).compare(long), 0);
    assert.equal(arena.buffer(0).toString('latin1', arena.offset(0), arena.offset(0) + 3), 'abc');
    arena.free(1);
    assert.equal(arena.stats().live, 6);
    assert.ok(arena.stats().capacity <= 2 * ARENA_SEGMENT_BYTES, 'the long record\'s segment let go');
    assert.equal(arena.buffer(2).toString('latin1', arena.offset(2), arena.offset(2) + 3), 'def');
  });
});
