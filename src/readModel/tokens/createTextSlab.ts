import type { Json, JsonBytes } from '../json.ts';

/**
 * Where a text's bytes are in the slab, owned by the item the text belongs to: `length` is the
 * text's size in UTF-8, `stored` what the slab holds for it (less when it refers to shared pieces).
 */
export type SlabSpan = { offset: number; length: number; stored: number };

/**
 * A text as pieces, joined in order: the even-indexed ones are the item's own, the odd-indexed
 * ones may be shared with other items (each distinct one is stored once). Typed by the JSON the
 * pieces join to.
 */
export type TextParts<J> = readonly string[] & { readonly joins: J };

/** A slab of JSON texts of type J, one per item T. */
export type TextSlab<T extends SlabSpan, J> = {
  /** Stores `text` for `item` (setting its span), replacing what `item` held before. */
  put(item: T, text: Json<J> | TextParts<J>): void;
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
  /**
   * Bytes stored for live items, the slab's size with garbage and free room, and the shared
   * pieces held (distinct ones, their bytes) (for tests).
   */
  stats(): { live: number; used: number; capacity: number; shared: { pieces: number; bytes: number } };
};

const MIN_CAPACITY = 64 * 1024;
/**
 * A reference to a shared piece in an item's stored bytes: this byte, then the piece's id in 3
 * bytes (little-endian). JSON text never holds a raw control character (JSON.stringify escapes
 * them) and UTF-8 uses none in multi-byte sequences, so the byte marks nothing else.
 */
const MARK = 0x01;
const REF_BYTES = 4;
const MAX_PIECES = 1 << 24;

/** Joins the pieces: the whole text. */
export function joinParts<J>(parts: Json<J> | TextParts<J>): Json<J> {
  return (typeof parts === 'string' ? parts : parts.join('')) as Json<J>;
}

/**
 * Many small texts (token JSON) as UTF-8 bytes in one append-only buffer, so a page is built by
 * copying bytes into one Buffer: no string join and no UTF-8 encoding per request. A replaced
 * text leaves garbage behind; when the buffer is full, the live texts move to a new one with
 * half again their size of room: garbage stays under half the live bytes of the last rebuild,
 * and each rebuild follows at least that many bytes of writes. Spans stay valid until the next
 * put or clear.
 *
 * Pieces many texts share (a token's security reasons, its completeness) are stored once in a
 * second buffer, counted by how many texts refer to them, and referred to from a text's bytes by
 * a 4-byte reference; copying a text splices them back (a memchr for the next reference, one copy
 * per piece). A piece whose 32-bit hash another one already holds is stored in the text itself.
 */
export function createTextSlab<T extends SlabSpan, J>(): TextSlab<T, J> {
  const live = new Set<T>();
  let slab = Buffer.allocUnsafeSlow(MIN_CAPACITY);
  let used = 0;
  let liveBytes = 0;
  const shared = createSharedPieces();

  /** Moves the live texts into a new buffer with room for `extra` more bytes and then some. */
  function rebuild(extra: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(MIN_CAPACITY, Math.ceil((liveBytes + extra) * 1.5)));
    let at = 0;
    for (const item of live) {
      slab.copy(next, at, item.offset, item.offset + item.stored);
      item.offset = at;
      at += item.stored;
    }
    slab = next;
    used = at;
    endMark();
  }

  /**
   * A MARK right after the last text: the search for a text's next reference (which may run past
   * its end) stops there at the latest, never in the free room's old bytes.
   */
  function endMark(): void {
    if (used < slab.length) slab[used] = MARK;
  }

  function free(item: T): void {
    if (!live.delete(item)) return;
    liveBytes -= item.stored;
    if (item.stored === item.length) return;
    const end = item.offset + item.stored;
    for (let m = slab.indexOf(MARK, item.offset); m >= 0 && m < end; m = slab.indexOf(MARK, m + REF_BYTES)) shared.release(readId(slab, m + 1));
  }

  /** Writes `parts` at `used` (room made by the caller for `bound` bytes); returns the bytes written and the text's length. */
  function write(parts: readonly string[]): { stored: number; length: number } {
    let at = used;
    let length = 0;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.length === 0) continue;
      const id = i % 2 === 1 ? shared.acquire(part) : -1;
      if (id < 0) {
        const n = slab.write(part, at, 'utf8');
        at += n;
        length += n;
      } else {
        slab[at] = MARK;
        writeId(slab, at + 1, id);
        at += REF_BYTES;
        length += shared.length(id);
      }
    }
    return { stored: at - used, length };
  }

  return {
    put(item, text) {
      free(item);
      const parts = typeof text === 'string' ? [text] : text;
      // at most this many bytes: every piece inline (a reference is shorter than the piece it replaces or 4 bytes)
      let bound = 0;
      for (const part of parts) bound += Math.max(REF_BYTES, Buffer.byteLength(part));
      if (used + bound > slab.length) rebuild(bound);
      const { stored, length } = write(parts);
      item.offset = used;
      item.stored = stored;
      item.length = length;
      used += stored;
      liveBytes += stored;
      live.add(item);
      endMark();
    },
    reserve(bytes) {
      if (used + bytes <= slab.length) return;
      // An empty slab (a full load) gets exactly what is asked for: the caller's estimate has its own headroom.
      if (live.size === 0) {
        slab = Buffer.allocUnsafeSlow(Math.max(MIN_CAPACITY, bytes));
        used = 0;
        endMark();
      } else rebuild(bytes);
    },
    free,
    copy(item, target, at) {
      const end = item.offset + item.stored;
      if (item.stored === item.length) return at + slab.copy(target, at, item.offset, end);
      let from = item.offset;
      for (;;) {
        const m = slab.indexOf(MARK, from);
        if (m < 0 || m >= end) return at + slab.copy(target, at, from, end);
        at += slab.copy(target, at, from, m);
        at = shared.copy(readId(slab, m + 1), target, at);
        from = m + REF_BYTES;
      }
    },
    bytes(item) {
      const out = Buffer.allocUnsafe(item.length);
      // allocUnsafe: a short copy would hand out whatever the memory held before
      if (this.copy(item, out, 0) !== item.length) throw new Error(`text copied short of its ${item.length} bytes`);
      return out as JsonBytes<J>; // the bytes of a Json<J> put there
    },
    clear() {
      live.clear();
      liveBytes = 0;
      used = 0;
      shared.clear();
      endMark();
    },
    stats: () => ({ live: liveBytes, used, capacity: slab.length, shared: shared.stats() }),
  };
}

const readId = (buf: Buffer, at: number) => buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16);
function writeId(buf: Buffer, at: number, id: number): void {
  buf[at] = id & 0xff;
  buf[at + 1] = (id >> 8) & 0xff;
  buf[at + 2] = id >> 16;
}

/** FNV-1a over a string's UTF-16 code units. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/**
 * The shared pieces: each distinct one's bytes once in a buffer (compacted like the slab), its
 * offset, length, hash and count of referring texts by id; an id freed when no text refers to it
 * any more is used again.
 */
function createSharedPieces() {
  const byHash = new Map<number, number>();
  let offsets = new Uint32Array(1024);
  let lengths = new Uint32Array(1024);
  let refs = new Uint32Array(1024);
  let hashes = new Int32Array(1024);
  let bytes = Buffer.allocUnsafeSlow(MIN_CAPACITY);
  let used = 0;
  let liveBytes = 0;
  let ids = 0;
  const freeIds: number[] = [];
  let scratch = Buffer.allocUnsafeSlow(1024);

  function grow(): void {
    const n = offsets.length * 2;
    const widen = <A extends Uint32Array | Int32Array>(a: A, make: (n: number) => A): A => {
      const b = make(n);
      b.set(a);
      return b;
    };
    offsets = widen(offsets, (k) => new Uint32Array(k));
    lengths = widen(lengths, (k) => new Uint32Array(k));
    refs = widen(refs, (k) => new Uint32Array(k));
    hashes = widen(hashes, (k) => new Int32Array(k));
  }

  /** Moves the live pieces into a new buffer with room for `extra` more bytes and then some. */
  function compact(extra: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(MIN_CAPACITY, Math.ceil((liveBytes + extra) * 1.5)));
    let at = 0;
    for (let id = 0; id < ids; id++) {
      if (refs[id] === 0) continue;
      bytes.copy(next, at, offsets[id]!, offsets[id]! + lengths[id]!);
      offsets[id] = at;
      at += lengths[id]!;
    }
    bytes = next;
    used = at;
  }

  return {
    /** The id of the piece `text` (one more text refers to it), or -1 when it is to be stored inline. */
    acquire(text: string): number {
      const n = Buffer.byteLength(text);
      if (scratch.length < n) scratch = Buffer.allocUnsafeSlow(Math.max(n, scratch.length * 2));
      scratch.write(text, 0, 'utf8');
      const hash = hashOf(text);
      const known = byHash.get(hash);
      if (known !== undefined) {
        if (lengths[known] !== n || scratch.compare(bytes, offsets[known]!, offsets[known]! + n, 0, n) !== 0) return -1;
        refs[known]!++;
        return known;
      }
      if (freeIds.length === 0 && ids >= MAX_PIECES) return -1;
      const id = freeIds.pop() ?? ids++;
      if (id >= offsets.length) grow();
      if (used + n > bytes.length) compact(n);
      scratch.copy(bytes, used, 0, n);
      offsets[id] = used;
      lengths[id] = n;
      refs[id] = 1;
      hashes[id] = hash;
      used += n;
      liveBytes += n;
      byHash.set(hash, id);
      return id;
    },
    /** One text fewer refers to piece `id`: forgotten when none does. */
    release(id: number): void {
      if (--refs[id]! > 0) return;
      byHash.delete(hashes[id]!);
      liveBytes -= lengths[id]!;
      freeIds.push(id);
    },
    length: (id: number) => lengths[id]!,
    copy: (id: number, target: Buffer, at: number) => at + bytes.copy(target, at, offsets[id]!, offsets[id]! + lengths[id]!),
    clear(): void {
      byHash.clear();
      refs.fill(0);
      freeIds.length = 0;
      ids = 0;
      used = 0;
      liveBytes = 0;
    },
    stats: () => ({ pieces: byHash.size, bytes: liveBytes }),
  };
}
