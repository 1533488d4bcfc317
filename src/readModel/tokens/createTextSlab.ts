import type { Json, JsonBytes } from '../json.ts';

/** Where a text's UTF-8 bytes are in the slab; owned by the item the text belongs to. */
export type SlabSpan = { segment: number; offset: number; length: number };

/** A slab of JSON texts of type J, one per item T. */
export type TextSlab<T extends SlabSpan, J> = {
  /** Stores `text` for `item` (setting its span), replacing what `item` held before. */
  put(item: T, text: Json<J>): void;
  /** Forgets `item`'s text. */
  free(item: T): void;
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
/**
 * A segment (other than the one being appended to) whose garbage passes this share of its size
 * is compacted: its live texts move to the end, and it is let go. Every other segment is then at
 * least 7/8 live, so the slab holds at most 8/7 of the live bytes plus the segment being filled.
 */
export const MAX_GARBAGE_SHARE = 1 / 8;

/** `drop` bytes of a text, starting `at` bytes into it, replaced by `insert`. */
export type Splice = { at: number; drop: number; insert: Buffer };

type Segment<T> = { buf: Buffer; used: number; live: number; items: Set<T> };

/**
 * Many small texts (token JSON) as UTF-8 bytes in fixed-size segments, so a page is built by
 * copying bytes into one Buffer: no string join and no UTF-8 encoding per request. Texts are
 * appended; a replaced text leaves garbage behind, reclaimed by compacting its segment once the
 * garbage passes MAX_GARBAGE_SHARE of it. Segments are mmap-sized allocations given back to the
 * system one by one, so the slab never holds two copies of itself (a single buffer did while it
 * grew: 600 MB resident for 160 MB of texts at 100,000 tokens, docs/performance.md) and leaves
 * nothing behind in the malloc heap. Spans stay valid until the next put, free or clear.
 */
export function createTextSlab<T extends SlabSpan, J>(): TextSlab<T, J> {
  const segments: (Segment<T> | undefined)[] = [];
  const released: number[] = [];
  let current = -1; // the segment texts are appended to
  let liveBytes = 0;
  let usedBytes = 0;
  let capacity = 0;

  function open(minBytes: number): number {
    const buf = Buffer.allocUnsafeSlow(Math.max(SEGMENT_BYTES, minBytes));
    const index = released.pop() ?? segments.length;
    segments[index] = { buf, used: 0, live: 0, items: new Set() };
    capacity += buf.length;
    return index;
  }

  function release(index: number): void {
    const seg = segments[index]!;
    capacity -= seg.buf.length;
    usedBytes -= seg.used;
    segments[index] = undefined;
    released.push(index);
  }

  /** Appends `length` bytes for `item`, written by `write` at the place given. */
  function append(item: T, length: number, write: (buf: Buffer, at: number) => void): void {
    let seg = current >= 0 ? segments[current] : undefined;
    let previous = -1;
    if (!seg || seg.used + length > seg.buf.length) {
      previous = current;
      current = open(length);
      seg = segments[current]!;
    }
    write(seg.buf, seg.used);
    item.segment = current;
    item.offset = seg.used;
    item.length = length;
    seg.used += length;
    seg.live += length;
    seg.items.add(item);
    usedBytes += length;
    liveBytes += length;
    // Only once this text is in: compacting the segment left behind appends to the new one.
    if (previous >= 0) settle(previous);
  }

  /** Lets go of a segment no longer appended to once it is empty; compacts it once it is mostly garbage. */
  function settle(index: number): void {
    const seg = segments[index];
    if (!seg || index === current) return;
    if (seg.live === 0) return release(index);
    if (seg.buf.length - seg.live <= seg.buf.length * MAX_GARBAGE_SHARE) return;
    const moving = [...seg.items];
    seg.items.clear();
    liveBytes -= seg.live;
    seg.live = 0;
    for (const item of moving) {
      const { offset, length } = item;
      append(item, length, (buf, at) => seg.buf.copy(buf, at, offset, offset + length));
    }
    release(index);
  }

  function free(item: T): void {
    const seg = segments[item.segment];
    if (!seg?.items.delete(item)) return;
    seg.live -= item.length;
    liveBytes -= item.length;
    settle(item.segment);
  }

  return {
    put(item, text) {
      free(item);
      append(item, Buffer.byteLength(text), (buf, at) => buf.write(text, at, 'utf8'));
    },
    free,
    copy: (item, target, at) => at + segments[item.segment]!.buf.copy(target, at, item.offset, item.offset + item.length),
    copySpliced(item, splice, target, at) {
      const buf = segments[item.segment]!.buf;
      const cut = item.offset + splice.at;
      if (splice.at < 0 || splice.at + splice.drop > item.length) throw new RangeError(`splice ${splice.at}+${splice.drop} outside a text of ${item.length} bytes`);
      at += buf.copy(target, at, item.offset, cut);
      at += splice.insert.copy(target, at);
      return at + buf.copy(target, at, cut + splice.drop, item.offset + item.length);
    },
    // the bytes of a Json<J> put there
    bytes: (item) => Buffer.from(segments[item.segment]!.buf.subarray(item.offset, item.offset + item.length)) as JsonBytes<J>,
    clear() {
      segments.length = 0;
      released.length = 0;
      current = -1;
      liveBytes = 0;
      usedBytes = 0;
      capacity = 0;
    },
    stats: () => ({ live: liveBytes, used: usedBytes, capacity, segments: segments.length - released.length }),
  };
}
