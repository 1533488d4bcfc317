import type { Json, JsonBytes } from '../json.ts';

/** Where a text's UTF-8 bytes are in the slab; owned by the item the text belongs to. */
export type SlabSpan = { offset: number; length: number };

/** A slab of JSON texts of type J, one per item T. */
export type TextSlab<T extends SlabSpan, J> = {
  /** Stores `text` for `item` (setting its span), replacing what `item` held before. */
  put(item: T, text: Json<J>): void;
  /**
   * Makes room for `bytes` more bytes at once: growing step by step through a full load leaves
   * the freed steps in the malloc heap (docs/performance.md, fifth round).
   */
  reserve(bytes: number): void;
  /** Forgets `item`'s text (its span becomes garbage, reclaimed by the next compaction). */
  free(item: T): void;
  /** Copies `item`'s bytes into `target` at `at`; returns the end. */
  copy(item: T, target: Buffer, at: number): number;
  /** A copy of `item`'s bytes, owned by the caller. */
  bytes(item: T): JsonBytes<J>;
  /** Forgets every item. */
  clear(): void;
  /** Bytes held by live items, and the slab's size with garbage and free room (for tests). */
  stats(): { live: number; used: number; capacity: number };
};

const MIN_CAPACITY = 64 * 1024;

/**
 * Many small texts (token JSON) as UTF-8 bytes in one append-only buffer, so a page is built by
 * copying bytes into one Buffer: no string join and no UTF-8 encoding per request. A replaced
 * text leaves garbage behind; when the buffer is full, the live texts move to a new one with
 * half again their size of room: garbage stays under half the live bytes of the last rebuild,
 * and each rebuild follows at least that many bytes of writes. Spans stay valid until the next
 * put or clear.
 */
export function createTextSlab<T extends SlabSpan, J>(): TextSlab<T, J> {
  const live = new Set<T>();
  let slab = Buffer.allocUnsafeSlow(MIN_CAPACITY);
  let used = 0;
  let liveBytes = 0;

  /** Moves the live texts into a new buffer with room for `extra` more bytes and then some. */
  function rebuild(extra: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(MIN_CAPACITY, Math.ceil((liveBytes + extra) * 1.5)));
    let at = 0;
    for (const item of live) {
      slab.copy(next, at, item.offset, item.offset + item.length);
      item.offset = at;
      at += item.length;
    }
    slab = next;
    used = at;
  }

  function free(item: T): void {
    if (live.delete(item)) liveBytes -= item.length;
  }

  return {
    put(item, text) {
      free(item);
      const length = Buffer.byteLength(text);
      if (used + length > slab.length) rebuild(length);
      slab.write(text, used, length, 'utf8');
      item.offset = used;
      item.length = length;
      used += length;
      liveBytes += length;
      live.add(item);
    },
    reserve(bytes) {
      if (used + bytes <= slab.length) return;
      // An empty slab (a full load) gets exactly what is asked for: the caller's estimate has its own headroom.
      if (live.size === 0) {
        slab = Buffer.allocUnsafeSlow(Math.max(MIN_CAPACITY, bytes));
        used = 0;
      } else rebuild(bytes);
    },
    free,
    copy: (item, target, at) => at + slab.copy(target, at, item.offset, item.offset + item.length),
    // the bytes of a Json<J> put there
    bytes: (item) => Buffer.from(slab.subarray(item.offset, item.offset + item.length)) as JsonBytes<J>,
    clear() {
      live.clear();
      liveBytes = 0;
      used = 0;
    },
    stats: () => ({ live: liveBytes, used, capacity: slab.length }),
  };
}
