import { createRecordArena } from '../createRecordArena.ts';
import type { Json, JsonBytes } from '../json.ts';

export { MAX_GARBAGE_SHARE } from '../createRecordArena.ts';

/** What the slab knows an item by: its slot (a small integer the owner reuses), which holds one text. */
export type SlabItem = { slot: number };

/** A slab of JSON texts of type J, one per item T. */
export type TextSlab<T extends SlabItem, J> = {
  /** Stores `text` for `item`, replacing what `item` held before. */
  put(item: T, text: Json<J>): void;
  /** Forgets `item`'s text. */
  free(item: T): void;
  /** The byte length of `item`'s text. */
  length(item: T): number;
  /** Copies `item`'s bytes into `target` at `at`; returns the end. */
  copy(item: T, target: Buffer, at: number): number;
  /** Copies `item`'s bytes into `target` at `at` with `splice` applied; returns the end. */
  copySpliced(item: T, splice: Splice, target: Buffer, at: number): number;
  /** A copy of `item`'s bytes, owned by the caller. */
  bytes(item: T): JsonBytes<J>;
  /** Forgets every item and lets go of every segment. */
  clear(): void;
  /** Bytes held by live items, bytes written to segments (live and garbage), and the segments' size (for tests). */
  stats(): { live: number; used: number; capacity: number; segments: number };
};

/** A segment's size: about 650 token texts. A longer text gets a segment of its own size. */
export const SEGMENT_BYTES = 1 << 20;

/** `drop` bytes of a text, starting `at` bytes into it, replaced by `insert`. */
export type Splice = { at: number; drop: number; insert: Buffer };

/**
 * Many small texts (token JSON) as UTF-8 bytes in a record arena of 1 MB segments, so a page is
 * built by copying bytes into one Buffer: no string join and no UTF-8 encoding per request.
 * Segments are mmap-sized allocations given back to the system one by one, so the slab never
 * holds two copies of itself (a single buffer did while it grew: 600 MB resident for 160 MB of
 * texts at 100,000 tokens, docs/performance.md) and leaves nothing behind in the malloc heap.
 * A text's place stays valid until the next put, free or clear.
 */
export function createTextSlab<T extends SlabItem, J>(): TextSlab<T, J> {
  const arena = createRecordArena(SEGMENT_BYTES);
  return {
    put(item, text) {
      arena.put(item.slot, Buffer.byteLength(text), (buf, at) => buf.write(text, at, 'utf8'));
    },
    free: (item) => arena.free(item.slot),
    length: (item) => arena.length(item.slot),
    copy(item, target, at) {
      const from = arena.offset(item.slot);
      return at + arena.buffer(item.slot).copy(target, at, from, from + arena.length(item.slot));
    },
    copySpliced(item, splice, target, at) {
      const buf = arena.buffer(item.slot);
      const from = arena.offset(item.slot);
      const length = arena.length(item.slot);
      const cut = from + splice.at;
      if (splice.at < 0 || splice.at + splice.drop > length) throw new RangeError(`splice ${splice.at}+${splice.drop} outside a text of ${length} bytes`);
      at += buf.copy(target, at, from, cut);
      at += splice.insert.copy(target, at);
      return at + buf.copy(target, at, cut + splice.drop, from + length);
    },
    bytes(item) {
      const from = arena.offset(item.slot);
      // the bytes of a Json<J> put there
      return Buffer.from(arena.buffer(item.slot).subarray(from, from + arena.length(item.slot))) as JsonBytes<J>;
    },
    clear: () => arena.clear(),
    stats: () => arena.stats(),
  };
}
