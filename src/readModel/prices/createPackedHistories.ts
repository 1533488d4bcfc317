import type { Json } from '../json.ts';
import { createRecordArena } from '../createRecordArena.ts';

/** One token's points that can still show, unpacked: what a request reads and a load changes. */
export type History = {
  checksum: string;
  /** The current price as JSON number text, like every price held. */
  currentPrice: Json<number> | null;
  /** ms since the epoch */
  priceUpdatedAt: number | null;
  /** Hours (since the epoch) of the points, ascending, `prices` in step. */
  hours: number[];
  /** The points' prices as JSON number text. */
  prices: Json<number>[];
};

/**
 * What a held history costs in the V8 heap besides its record: the Map's entry and its key (the
 * address string) and the slot's columns. Counted with the record's bytes against the bound.
 */
export const HEAP_BYTES_PER_HISTORY = 200;

export type PackedHistories = {
  readonly size: number;
  /** Estimated bytes held (records and HEAP_BYTES_PER_HISTORY each). */
  readonly bytes: number;
  has(address: string): boolean;
  /** The history held for `address`, unpacked; `use` marks it asked for (see evict). */
  get(address: string, use?: boolean): History | undefined;
  /** Holds `history` for `address` (replacing what was held; `last`: moved to the end of the eviction order). */
  set(address: string, history: History, last?: boolean): void;
  /** The addresses held, in eviction order. */
  addresses(): IterableIterator<string>;
  /** Forgets the oldest until the rest fit within `maxBytes`; one asked for since it was last passed gets a second chance. */
  evict(maxBytes: number): void;
  /** The points held, counted. */
  points(): number;
  clear(): void;
};

/** `steps` of 2 bytes each unless a step passes this (an old carried point: then 4 bytes per hour). */
const MAX_NARROW_STEP = 0xffff;

const isWide = (hours: readonly number[]) => hours.some((hour, i) => i > 0 && hour - hours[i - 1]! > MAX_NARROW_STEP);

/** What holding `history` costs against the bound: its record's bytes and HEAP_BYTES_PER_HISTORY. */
export function estimatedBytes(history: History): number {
  let text = history.checksum.length + (history.currentPrice?.length ?? 0) + Math.max(0, history.prices.length - 1);
  for (const price of history.prices) text += price.length;
  return text + (isWide(history.hours) ? 4 : 2) * history.hours.length + HEAP_BYTES_PER_HISTORY;
}

/**
 * The price histories held, packed outside the V8 heap (createRecordArena): per token one record
 * of its checksum address, current price and prices as one-byte text and the points' hours as
 * steps from the first, and a few numbers per slot in typed arrays. A held history costs its
 * record (~400 bytes for a day of hourly points) and ~200 bytes of heap, where objects and
 * strings per token cost ~650 bytes of heap (docs/performance.md): every history of a
 * 100,000-token catalogue fits within a bound of tens of MB that V8's heap limit need not hold.
 */
export function createPackedHistories(): PackedHistories {
  const arena = createRecordArena();
  /** address → slot, in eviction order. */
  const slots = new Map<string, number>();
  const freeSlots: number[] = [];
  let nextSlot = 0;
  let bytes = 0;
  let firstHour = new Float64Array(1024);
  let updatedAt = new Float64Array(1024); // NaN: no time
  let count = new Uint32Array(1024);
  /** Bytes of the checksum and of the current price's text (0xffff: null) at the record's start. */
  let checksumLength = new Uint8Array(1024);
  let currentLength = new Uint16Array(1024);
  let wide = new Uint8Array(1024);
  let used = new Uint8Array(1024);

  function grow(slot: number): void {
    if (slot < count.length) return;
    const size = count.length * 2;
    const copy = <A extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(from: A, make: (n: number) => A): A => {
      const to = make(size);
      to.set(from);
      return to;
    };
    firstHour = copy(firstHour, (n) => new Float64Array(n));
    updatedAt = copy(updatedAt, (n) => new Float64Array(n));
    count = copy(count, (n) => new Uint32Array(n));
    checksumLength = copy(checksumLength, (n) => new Uint8Array(n));
    currentLength = copy(currentLength, (n) => new Uint16Array(n));
    wide = copy(wide, (n) => new Uint8Array(n));
    used = copy(used, (n) => new Uint8Array(n));
  }

  const recordBytes = (slot: number) => arena.length(slot) + HEAP_BYTES_PER_HISTORY;

  function write(slot: number, history: History): void {
    const { checksum, currentPrice, hours, prices } = history;
    const wideSteps = isWide(hours);
    const joined = prices.join(',');
    const current = currentPrice ?? '';
    const text = checksum.length + current.length + joined.length;
    const stepBytes = wideSteps ? 4 : 2;
    firstHour[slot] = hours[0] ?? 0;
    updatedAt[slot] = history.priceUpdatedAt ?? NaN;
    count[slot] = hours.length;
    checksumLength[slot] = checksum.length;
    currentLength[slot] = currentPrice === null ? 0xffff : current.length;
    wide[slot] = wideSteps ? 1 : 0;
    arena.put(slot, text + stepBytes * hours.length, (buf, at) => {
      for (const part of [checksum, current, joined]) if (part) at += buf.write(part, at, 'latin1');
      for (let i = 0; i < hours.length; i++, at += stepBytes) {
        const step = i === 0 ? 0 : hours[i]! - hours[i - 1]!;
        if (wideSteps) buf.writeUInt32LE(step, at);
        else buf.writeUInt16LE(step, at);
      }
    });
  }

  function read(slot: number): History {
    const buf = arena.buffer(slot);
    const start = arena.offset(slot);
    const n = count[slot]!;
    const stepBytes = wide[slot] ? 4 : 2;
    const end = start + arena.length(slot) - stepBytes * n;
    const text = buf.toString('latin1', start, end);
    const checksumEnd = checksumLength[slot]!;
    const currentText = currentLength[slot]!;
    const pricesStart = checksumEnd + (currentText === 0xffff ? 0 : currentText);
    const hours: number[] = new Array(n);
    for (let i = 0, hour = firstHour[slot]!, at = end; i < n; i++, at += stepBytes) {
      hours[i] = hour += stepBytes === 2 ? buf[at]! | (buf[at + 1]! << 8) : buf.readUInt32LE(at);
    }
    const time = updatedAt[slot]!;
    return {
      checksum: text.slice(0, checksumEnd),
      currentPrice: currentText === 0xffff ? null : (text.slice(checksumEnd, pricesStart) as Json<number>),
      priceUpdatedAt: Number.isNaN(time) ? null : time,
      hours,
      prices: pricesStart === text.length ? [] : (text.slice(pricesStart).split(',') as Json<number>[]),
    };
  }

  function forget(address: string, slot: number): void {
    bytes -= recordBytes(slot);
    arena.free(slot);
    slots.delete(address);
    freeSlots.push(slot);
  }

  return {
    get size() {
      return slots.size;
    },
    get bytes() {
      return bytes;
    },
    has: (address) => slots.has(address),
    get(address, use = false) {
      const slot = slots.get(address);
      if (slot === undefined) return undefined;
      if (use) used[slot] = 1;
      return read(slot);
    },
    set(address, history, last = false) {
      let slot = slots.get(address);
      if (slot === undefined) {
        slot = freeSlots.pop() ?? nextSlot++;
        grow(slot);
        used[slot] = 0;
      } else {
        bytes -= recordBytes(slot);
        if (last) slots.delete(address);
      }
      slots.set(address, slot);
      write(slot, history);
      bytes += recordBytes(slot);
    },
    addresses: () => slots.keys(),
    evict(maxBytes) {
      for (const [address, slot] of slots) {
        if (bytes <= maxBytes) break;
        if (used[slot]) {
          used[slot] = 0;
          slots.delete(address);
          slots.set(address, slot);
        } else forget(address, slot);
      }
    },
    points() {
      let points = 0;
      for (const slot of slots.values()) points += count[slot]!;
      return points;
    },
    clear() {
      arena.clear();
      slots.clear();
      freeSlots.length = 0;
      nextSlot = 0;
      bytes = 0;
    },
  };
}
