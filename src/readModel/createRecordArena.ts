/** A segment's size by default: ~600 price histories. A longer record gets a segment of its own size. */
export const ARENA_SEGMENT_BYTES = 256 * 1024;
/**
 * A segment (other than the one being appended to) whose garbage passes this share of its size
 * is compacted: its live records move to the end, and it is let go. Every other segment is then
 * at least 7/8 live, so the arena holds at most 8/7 of the live bytes plus the segment being filled.
 */
export const MAX_GARBAGE_SHARE = 1 / 8;

export type RecordArena = {
  /** Stores `length` bytes for `slot`, written by `write` at `at` in `buf`, replacing what it held. */
  put(slot: number, length: number, write: (buf: Buffer, at: number) => void): void;
  /** Forgets `slot`'s record. */
  free(slot: number): void;
  /** The segment holding `slot`'s record (valid until the next put, free or clear). */
  buffer(slot: number): Buffer;
  offset(slot: number): number;
  length(slot: number): number;
  /** Forgets every record and lets go of every segment. */
  clear(): void;
  /** Bytes of live records, bytes written to the segments held (live and garbage), their size and count. */
  stats(): { live: number; used: number; capacity: number; segments: number };
};

type Segment = { buf: Buffer; used: number; live: number };

/**
 * Byte records numbered by slot (small integers the caller reuses), outside the V8 heap: the
 * records are appended to fixed-size segments and their places kept in typed arrays, so a record
 * costs its bytes and 12 bytes of place, and no object per record. A replaced record leaves
 * garbage behind; a segment is compacted once its garbage passes MAX_GARBAGE_SHARE of it (its
 * records found by a scan of the places, no per-segment set), so the arena holds at most 8/7 of
 * the live bytes plus the segment being filled.
 */
export function createRecordArena(segmentBytes = ARENA_SEGMENT_BYTES): RecordArena {
  const segments: (Segment | undefined)[] = [];
  const released: number[] = [];
  let current = -1;
  let live = 0;
  let used = 0;
  let capacity = 0;
  // The place of each slot's record; segmentOf -1: none.
  let segmentOf = new Int32Array(1024).fill(-1);
  let offsetOf = new Uint32Array(1024);
  let lengthOf = new Uint32Array(1024);

  function reserve(slot: number): void {
    if (slot < segmentOf.length) return;
    let size = segmentOf.length;
    while (size <= slot) size *= 2;
    const segs = new Int32Array(size).fill(-1);
    segs.set(segmentOf);
    const offsets = new Uint32Array(size);
    offsets.set(offsetOf);
    const lengths = new Uint32Array(size);
    lengths.set(lengthOf);
    segmentOf = segs;
    offsetOf = offsets;
    lengthOf = lengths;
  }

  function open(minBytes: number): number {
    const buf = Buffer.allocUnsafeSlow(Math.max(segmentBytes, minBytes));
    const index = released.pop() ?? segments.length;
    segments[index] = { buf, used: 0, live: 0 };
    capacity += buf.length;
    return index;
  }

  function release(index: number): void {
    capacity -= segments[index]!.buf.length;
    used -= segments[index]!.used;
    segments[index] = undefined;
    released.push(index);
  }

  function append(slot: number, length: number, write: (buf: Buffer, at: number) => void): void {
    let seg = current >= 0 ? segments[current] : undefined;
    let previous = -1;
    if (!seg || seg.used + length > seg.buf.length) {
      previous = current;
      current = open(length);
      seg = segments[current]!;
    }
    write(seg.buf, seg.used);
    segmentOf[slot] = current;
    offsetOf[slot] = seg.used;
    lengthOf[slot] = length;
    seg.used += length;
    seg.live += length;
    used += length;
    live += length;
    // Only once this record is in: compacting the segment left behind appends to the new one.
    if (previous >= 0) settle(previous);
  }

  /** Lets go of a segment no longer appended to once it is empty; compacts it once it is mostly garbage. */
  function settle(index: number): void {
    const seg = segments[index];
    if (!seg || index === current) return;
    if (seg.live === 0) return release(index);
    if (seg.buf.length - seg.live <= seg.buf.length * MAX_GARBAGE_SHARE) return;
    live -= seg.live;
    seg.live = 0;
    for (let slot = 0; slot < segmentOf.length; slot++) {
      if (segmentOf[slot] !== index) continue;
      const from = offsetOf[slot]!;
      append(slot, lengthOf[slot]!, (buf, at) => seg.buf.copy(buf, at, from, from + lengthOf[slot]!));
    }
    release(index);
  }

  function free(slot: number): void {
    const index = slot >= 0 && slot < segmentOf.length ? segmentOf[slot]! : -1;
    if (index < 0) return;
    const seg = segments[index]!;
    segmentOf[slot] = -1;
    seg.live -= lengthOf[slot]!;
    live -= lengthOf[slot]!;
    settle(index);
  }

  return {
    put(slot, length, write) {
      reserve(slot);
      free(slot);
      append(slot, length, write);
    },
    free,
    buffer: (slot) => segments[segmentOf[slot]!]!.buf,
    offset: (slot) => offsetOf[slot]!,
    length: (slot) => lengthOf[slot]!,
    clear() {
      segments.length = 0;
      released.length = 0;
      current = -1;
      live = 0;
      used = 0;
      capacity = 0;
      segmentOf.fill(-1);
    },
    stats: () => ({ live, used, capacity, segments: segments.length - released.length }),
  };
}
