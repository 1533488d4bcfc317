import {
  loadPriceChanges,
  loadPriceHistoriesAfter,
  loadPriceHistoriesOf,
  type DataVersion,
  type PricePointChange,
  type PriceTokenRow,
  type Queryable,
} from '../../db/index.ts';
import { createHeldDataGate } from '../heldDataGate.ts';
import { joinJsonNumbers, jsonArray, jsonNumber, jsonObjectWriter, jsonRecord, splitJsonNumbers, toJson, type JoinedJsonNumbers, type Json } from '../json.ts';
import type { PriceHistories, PriceHistory, PricePoint } from '../types.ts';

const HOUR_MS = 3_600_000;
/** Buckets in a history: the current hour and the 23 before it. */
export const HISTORY_HOURS = 24;

/** The hour (since the epoch) of the current bucket at `now`. */
const hourOf = (now: Date) => Math.floor(now.getTime() / HOUR_MS);
/**
 * The store's cutoff for a given current hour: the window's first hour minus one hour of margin.
 * Points from it on are kept, and before it only each token's latest (the carried price).
 */
const cutoffFor = (current: number) => current - HISTORY_HOURS;

/** The starts of the oldest and the newest (current) of the buckets of a history at `now`. */
export function historyRange(now: Date): { from: Date; to: Date } {
  const current = hourOf(now) * HOUR_MS;
  return { from: new Date(current - (HISTORY_HOURS - 1) * HOUR_MS), to: new Date(current) };
}

type Entry = {
  checksum: string;
  /** The current price as JSON number text, like every price held. */
  currentPrice: Json<number> | null;
  /** ms since the epoch */
  priceUpdatedAt: number | null;
  /** The hour of the first stored point (see `steps`). */
  firstHour: number;
  /**
   * Hours of the stored points, ascending, `prices` in step, packed (memory: a number array held
   * 365 bytes per token, docs/performance.md): the hour of each point after the first as its step
   * from the one before, one UTF-16 code unit per point (the first's is 0); when a step does not
   * fit in one (an old carried point, 7.5 years before the next), the hours themselves.
   */
  steps: string | number[];
  /**
   * The points' prices as JSON number text, joined by commas: one string per token, not one per
   * point (memory, docs/performance.md); split again per answer.
   */
  prices: JoinedJsonNumbers;
  /** An estimate of what the entry holds in the V8 heap (see sizeOf), counted against the store's bound. */
  bytes: number;
  /** Asked for since eviction last passed it (see evict). */
  used: boolean;
};

/** Default bound of the histories held (PriceHistoryStoreOptions.maxBytes). */
export const PRICE_HISTORY_MAX_BYTES = 16 * 1024 * 1024;
/**
 * Tokens per query of the background fill (unless chunkRows is given): each query holds the
 * event loop while PGlite runs it, so requests served meanwhile wait at most one small query.
 */
const FILL_CHUNK = 250;
/** A fill gives up after this many reads in a row that a version check overlapped (a busy indexer). */
const FILL_RETRIES = 20;

export type PriceHistoryStoreOptions = {
  db: Queryable;
  /** A request older than this since the last version check checks again (0: every request). */
  staleMs: number;
  /** Also check in the background every this many ms (so cached answers notice changes). */
  pollMs?: number;
  /** Wall clock for background checks and calls that pass no time; tests pin it. */
  now?: () => Date;
  /** Rows per query (see loadPriceChanges). */
  chunkRows?: number;
  /** The longest a request waits for a due check before the histories held answer, marked stale (default: the check's own bound). */
  waitMs?: number;
  /** Called when a check fails after the last one succeeded (once per outage). */
  onError?: (error: unknown) => void;
  /**
   * The most the histories held may take (estimated V8 heap bytes, default PRICE_HISTORY_MAX_BYTES):
   * beyond it the oldest are forgotten (one asked for since eviction last passed it gets a second
   * chance), and loaded again when next asked for.
   */
  maxBytes?: number;
  /**
   * After each full load (start-up, deleted rows), read histories in the background, in address
   * order, until the bound is reached (default true): a catalogue whose histories fit answers
   * from memory once filled, as when every history was loaded before serving.
   */
  fill?: boolean;
};

export type PriceHistoryStore = {
  /** The data version the store holds, as a string for cache keys. */
  version(): string;
  /** True when the last version check is older than `staleMs`: the next read checks again. */
  due(): boolean;
  /**
   * `force`: checks now and rejects when the check fails. Otherwise what a request does: checks
   * when due, waits at most `waitMs`, and answers from the histories held when the check fails or
   * is late (see stale()); rejects with UnavailableError (503) only when nothing is held.
   */
  refresh(force?: boolean, now?: Date): Promise<void>;
  /** True when the histories held could not be confirmed current: the last check failed or is late. */
  stale(): boolean;
  /** The serialised 24-hour history of one token, or undefined when it is not indexed. */
  history(address: string, now?: Date): Promise<Json<PriceHistory> | undefined>;
  /** `{checksumAddress: history}` of the indexed tokens among `addresses`, by address. */
  histories(addresses: readonly string[], now?: Date): Promise<Json<PriceHistories>>;
  /** The tokens held (those asked for lately), their points and estimated bytes, and the cutoff. */
  stats(): { tokens: number; points: number; bytes: number; cutoff: Date | undefined };
  stop(): void;
};

/**
 * The hourly price histories of the tokens asked for lately, held in memory by each API process:
 * a token's history is loaded from the shared database when first asked for (one query for the
 * misses of a request), kept while the histories held stay within `maxBytes` (the oldest
 * forgotten first, with a second chance for one asked for since: see evict), and followed incrementally by data version like the token
 * catalogue; a generation change (deleted rows) forgets them all. Nothing is read before the
 * first check answers; after each full load the store fills itself in the background up to its
 * bound (`fill`), so a catalogue whose histories fit is answered from memory (docs/performance.md).
 * Histories are written on request from the numbers held by concatenating prices kept as JSON
 * number text with the hour's timestamps formatted once: neither serialised histories (memory)
 * nor numbers formatted per request (a double's shortest decimal form is the expensive part;
 * docs/performance.md). Its output is exactly that of the SQL oracle
 * (test/oracles/getPriceHistories.ts): carry-forward, a stablecoin carried from its current
 * price, unknown tokens left out.
 *
 * Only points that can still show are held: those from the cutoff (the window's first hour minus
 * one) on, plus each token's latest one before it. When the hour rolls over, older points are
 * dropped here without asking the database; rows pruned there (prunePricePoints) are older still,
 * so pruning needs no reload. A request for an earlier window than the cutoff (a clock moved
 * back) forgets what is held.
 *
 * A miss's rows are kept only when no load ran or applied meanwhile and the cutoff did not move
 * (`epoch`): they were then read at the version held or later, and the next incremental load
 * (rows stamped above the version held: the latest values, applied over them) leaves them
 * current. Otherwise they answer that request and are not kept.
 */
export function createPriceHistoryStore(options: PriceHistoryStoreOptions): PriceHistoryStore {
  const clock = options.now ?? (() => new Date());
  const maxBytes = options.maxBytes ?? PRICE_HISTORY_MAX_BYTES;
  /** The histories held, in the order eviction passes them (see evict). */
  let entries = new Map<string, Entry>();
  let heldBytes = 0;
  let cutoff: number | undefined;
  let state: DataVersion | undefined;
  /** Moves on whenever a load starts or applies, or the cutoff moves (see the rule above). */
  let epoch = 0;
  const waitMs = options.waitMs ?? Infinity;
  let loading = false;
  /** Settles when the load under way (if any) has applied or failed. */
  let loadSettled: Promise<void> = Promise.resolve();
  /** Counts the background fills started: a fill stops when another one starts, or on stop(). */
  let fills = 0;

  function forgetAll(): void {
    entries = new Map();
    heldBytes = 0;
  }

  /**
   * Forgets histories until the rest fit within maxBytes, oldest first, but one asked for since
   * it was last passed gets a second chance (moved to the end, its mark cleared): a hit only marks
   * its entry, instead of moving it (a Map delete and set per address per request).
   */
  function evict(): void {
    for (const [address, entry] of entries) {
      if (heldBytes <= maxBytes) break;
      entries.delete(address);
      if (entry.used) {
        entry.used = false;
        entries.set(address, entry);
      } else heldBytes -= entry.bytes;
    }
  }

  async function load(now: Date): Promise<void> {
    let settle!: () => void;
    loadSettled = new Promise((resolve) => (settle = resolve));
    epoch++;
    loading = true;
    try {
      let full = false;
      // Incremental rows are applied together at the end (requests never see half a change).
      const tokens: PriceTokenRow[] = [];
      const points: PricePointChange[] = [];
      const changes = await loadPriceChanges(
        options.db,
        state,
        { cutoff: new Date((cutoff ?? cutoffFor(hourOf(now))) * HOUR_MS), chunkRows: options.chunkRows, fullRows: false },
        {
          begin: (c) => void (full = c.full),
          tokens: (rows) => rows.forEach((row) => tokens.push(row)),
          points: (rows) => rows.forEach((row) => points.push(row)),
        },
      );
      if (full) {
        forgetAll();
        cutoff ??= cutoffFor(hourOf(now));
        if (options.fill ?? true) void fill(++fills).catch(() => {}); // what it does not read is read when asked for
      } else {
        // only the histories held: the others are read as they are when asked for
        for (const row of tokens) setToken(entries, row, false);
        heldBytes += putPoints(entries, points, cutoff ?? cutoffFor(hourOf(now)));
        evict();
      }
      state = { version: changes.version, generation: changes.generation };
    } finally {
      loading = false;
      epoch++;
      settle();
    }
  }

  // Checks on the wall clock of the moment; a request's own `now` only decides what it covers.
  let checkNow: Date | undefined;
  const gate = createHeldDataGate(() => load(checkNow ?? clock()), () => state !== undefined, options.onError);
  const due = () => gate.due(options.staleMs);

  /** A full reload (after a reorg) only forgets what is held: it is waited for like an incremental one. */
  async function refresh(force = false, now = clock()): Promise<void> {
    checkNow = now;
    if (force) return gate.start();
    return gate.beforeRequest(options.staleMs, waitMs, 'price history');
  }

  /** Makes sure the points held cover the window at `now`; drops the ones an hour rollover retired. */
  function cover(now: Date): number {
    const wanted = cutoffFor(hourOf(now));
    if (cutoff === undefined || wanted < cutoff) {
      // points before the cutoff held were dropped: forget every history, each is read again when asked for
      forgetAll();
      cutoff = wanted;
      epoch++;
    } else if (wanted > cutoff) {
      for (const entry of entries.values()) heldBytes += trim(entry, wanted);
      cutoff = wanted;
      epoch++;
    }
    return cutoff;
  }

  async function ready(now: Date): Promise<number> {
    await refresh(false, now);
    return hourOf(now);
  }

  /**
   * Reads histories a chunk at a time, in address order, into the room left under maxBytes (the
   * histories already held were asked for: they stay). A chunk read while a load ran or the
   * cutoff moved is read again (the rule above), after that load has settled (a read beside a
   * slow load would only overlap it again); the fill stops when the room is used up, the
   * tokens are all read, another fill starts, or FILL_RETRIES reads in a row were overlapped.
   */
  async function fill(run: number): Promise<void> {
    const chunk = options.chunkRows ?? FILL_CHUNK;
    let after = '';
    for (let retries = 0; run === fills && retries < FILL_RETRIES; ) {
      const at = epoch;
      const from = cutoff!;
      const read = await loadPriceHistoriesAfter(options.db, after, chunk, new Date(from * HOUR_MS));
      if (run !== fills) return;
      if (at !== epoch || loading || cutoff !== from) {
        retries++;
        if (loading) await loadSettled;
        continue;
      }
      retries = 0;
      const loaded = new Map<string, Entry>();
      for (const row of read.tokens) setToken(loaded, row, true);
      putPoints(loaded, read.points, from);
      for (const [address, entry] of loaded) {
        if (entries.has(address)) continue;
        if (heldBytes + entry.bytes > maxBytes) return;
        entries.set(address, entry);
        heldBytes += entry.bytes;
      }
      if (read.tokens.length < chunk) return;
      after = read.tokens.at(-1)!.address;
      await new Promise((resolve) => setImmediate(resolve)); // requests first
    }
  }

  /**
   * The entries of `addresses` (lower-case, unique) that are indexed: those held (now the most
   * recently asked for), the others read in one query and kept when the rule above allows.
   */
  async function lookup(addresses: readonly string[], now: Date): Promise<Map<string, Entry>> {
    const found = new Map<string, Entry>();
    const missing: string[] = [];
    const from = cover(now);
    for (const address of addresses) {
      const entry = entries.get(address);
      if (!entry) missing.push(address);
      else {
        entry.used = true;
        found.set(address, entry);
      }
    }
    if (missing.length === 0) return found;
    const at = epoch;
    const read = await loadPriceHistoriesOf(options.db, missing, new Date(from * HOUR_MS));
    const loaded = new Map<string, Entry>();
    for (const row of read.tokens) setToken(loaded, row, true);
    putPoints(loaded, read.points, from);
    const keep = at === epoch && !loading;
    for (const [address, entry] of loaded) {
      found.set(address, entry);
      if (!keep) continue;
      const held = entries.get(address); // read twice by concurrent requests
      if (held) heldBytes -= held.bytes;
      entries.delete(address);
      entries.set(address, entry);
      heldBytes += entry.bytes;
    }
    if (keep) evict();
    return found;
  }

  // Failures are reported by the gate (once per outage).
  const timer = options.pollMs ? setInterval(() => refresh(true).catch(() => {}), options.pollMs) : undefined;
  timer?.unref();

  return {
    version: () => (state ? `${state.generation}.${state.version}` : ''),
    due,
    refresh,
    stale: () => gate.stale(waitMs),
    async history(address, now = clock()) {
      const current = await ready(now);
      const key = address.toLowerCase();
      const entry = (await lookup([key], now)).get(key);
      return entry && serialise(entry, current);
    },
    async histories(addresses, now = clock()) {
      const current = await ready(now);
      const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))].sort();
      const found = await lookup(wanted, now);
      const parts: [string, Json<PriceHistory>][] = [];
      for (const address of wanted) {
        const entry = found.get(address);
        if (entry) parts.push([entry.checksum, serialise(entry, current)]);
      }
      return jsonRecord(parts);
    },
    stats() {
      let points = 0;
      for (const entry of entries.values()) points += entry.steps.length;
      return { tokens: entries.size, points, bytes: heldBytes, cutoff: cutoff === undefined ? undefined : new Date(cutoff * HOUR_MS) };
    },
    stop() {
      clearInterval(timer);
      fills++;
    },
  };
}

/**
 * Estimated V8 heap bytes of an entry: the object, its map slot and key, the checksum, the
 * current price, and the two strings of points (one byte per character; two per step, as a
 * step above 0xff makes the string two-byte).
 */
function sizeOf(entry: Entry): number {
  const steps = typeof entry.steps === 'string' ? 2 * entry.steps.length : 16 + 8 * entry.steps.length;
  return 280 + entry.prices.length + steps;
}

/** Sets a token's current price; `create`: also a token not held yet (with no points). */
function setToken(entries: Map<string, Entry>, row: PriceTokenRow, create: boolean): void {
  const currentPrice = row.currentPrice === null ? null : jsonNumber(row.currentPrice);
  const priceUpdatedAt = row.priceUpdatedAt === null ? null : new Date(row.priceUpdatedAt).getTime();
  const entry = entries.get(row.address);
  if (!entry) {
    if (!create) return;
    const created: Entry = { checksum: row.checksumAddress, currentPrice, priceUpdatedAt, firstHour: 0, steps: '', prices: joinJsonNumbers([]), bytes: 0, used: false };
    created.bytes = sizeOf(created);
    entries.set(row.address, created);
    return;
  }
  entry.checksum = row.checksumAddress;
  entry.currentPrice = currentPrice;
  entry.priceUpdatedAt = priceUpdatedAt;
}

/**
 * Stores points in hour order (usually appends or overwrites of the last one). Each token's
 * joined prices are split and joined once per batch of rows, not once per point. Returns the
 * change of the entries' bytes.
 */
function putPoints(entries: Map<string, Entry>, rows: readonly PricePointChange[], cutoff: number): number {
  const touched = new Map<Entry, { hours: number[]; prices: Json<number>[] }>();
  for (const row of rows) {
    // A token not held, or a point written after the token rows were read (both come with the next load).
    const entry = entries.get(row.token);
    if (!entry) continue;
    let points = touched.get(entry);
    if (!points) touched.set(entry, (points = { hours: hoursOf(entry), prices: splitJsonNumbers(entry.prices) }));
    const { hours, prices } = points;
    const hour = row.hour;
    const price = jsonNumber(row.price);
    let i = hours.length;
    while (i > 0 && hours[i - 1]! > hour) i--;
    if (i > 0 && hours[i - 1] === hour) prices[i - 1] = price;
    else if (i === hours.length) {
      hours.push(hour);
      prices.push(price);
    } else {
      hours.splice(i, 0, hour);
      prices.splice(i, 0, price);
    }
  }
  let delta = 0;
  for (const [entry, { hours, prices }] of touched) {
    const before = trimmed(hours, cutoff);
    delta += setPoints(entry, hours.slice(before), prices.slice(before));
  }
  return delta;
}

/** The hours of an entry's points, unpacked. */
function hoursOf(entry: Entry): number[] {
  const { steps } = entry;
  if (typeof steps !== 'string') return steps.slice();
  const hours: number[] = [];
  for (let i = 0, hour = entry.firstHour; i < steps.length; i++) hours.push((hour += steps.charCodeAt(i)));
  return hours;
}

/** Stores an entry's points: their hours packed (see Entry.steps), their prices joined. Returns the change of its bytes. */
function setPoints(entry: Entry, hours: readonly number[], prices: readonly Json<number>[]): number {
  entry.prices = joinJsonNumbers(prices);
  entry.firstHour = hours[0] ?? 0;
  const steps = hours.map((hour, i) => (i === 0 ? 0 : hour - hours[i - 1]!));
  // one flat string (concatenating code units one by one would build a rope of them)
  entry.steps = steps.some((step) => step > 0xffff) ? hours.slice() : String.fromCharCode(...steps);
  const bytes = entry.bytes;
  entry.bytes = sizeOf(entry);
  return entry.bytes - bytes;
}

/** How many of `hours` (ascending) to drop so that those from `cutoff` on and the latest one before it stay. */
function trimmed(hours: readonly number[], cutoff: number): number {
  let before = 0;
  while (before < hours.length && hours[before]! < cutoff) before++;
  return Math.max(0, before - 1);
}

/** Keeps the points from `cutoff` on and the latest one before it: the answers stay the same. Returns the change of its bytes. */
function trim(entry: Entry, cutoff: number): number {
  const { steps } = entry;
  if (steps.length < 2) return 0;
  // nothing to drop while the second point is from the cutoff on (checked without unpacking: every entry, every hour)
  if ((typeof steps === 'string' ? entry.firstHour + steps.charCodeAt(1) : steps[1]!) >= cutoff) return 0;
  const hours = hoursOf(entry);
  const before = trimmed(hours, cutoff);
  return before > 0 ? setPoints(entry, hours.slice(before), splitJsonNumbers(entry.prices).slice(before)) : 0;
}

/** Reused by serialise (synchronous) to unpack an entry's hours without allocating. */
const scratchHours: number[] = [];

/** `entry`'s hours in `into` (its length set to their count). */
function unpackInto(into: number[], entry: Entry): number[] {
  const { steps } = entry;
  into.length = steps.length;
  if (typeof steps !== 'string') {
    for (let i = 0; i < steps.length; i++) into[i] = steps[i]!;
    return into;
  }
  for (let i = 0, hour = entry.firstHour; i < steps.length; i++) into[i] = hour += steps.charCodeAt(i);
  return into;
}

/** The timestamp of each hour of the current window, made once per hour. */
let stampsHour = -1;
let stamps: Json<string>[] = [];
function stampsFor(current: number): Json<string>[] {
  if (stampsHour !== current) {
    const first = current - (HISTORY_HOURS - 1);
    stamps = Array.from({ length: HISTORY_HOURS }, (_, k) => toJson(new Date((first + k) * HOUR_MS).toISOString()));
    stampsHour = current;
  }
  return stamps;
}

const pricePoint = jsonObjectWriter<PricePoint>()(['price', 'timestamp']);

/**
 * The 24 hourly buckets ending with `current`, oldest first, as the SQL oracle fills them: the
 * last point at or before each hour, else the current price once it was set before the hour
 * ended, else nothing (the bucket is left out). Written from the prices' JSON held, byte for
 * byte what JSON.stringify gives for the PriceHistory (test/readModel/prices/priceHistoryJson.test.ts).
 */
function serialise(entry: Entry, current: number): Json<PriceHistory> {
  const first = current - (HISTORY_HOURS - 1);
  const stamp = stampsFor(current);
  const hours = unpackInto(scratchHours, entry);
  const prices = splitJsonNumbers(entry.prices);
  let i = 0;
  let price: Json<number> | null = null;
  while (i < hours.length && hours[i]! < first) price = prices[i++]!;
  const points: Json<PricePoint>[] = [];
  for (let hour = first; hour <= current; hour++) {
    if (i < hours.length && hours[i] === hour) price = prices[i++]!;
    const fromCurrent = entry.priceUpdatedAt !== null && entry.priceUpdatedAt < (hour + 1) * HOUR_MS ? entry.currentPrice : null;
    const value = price ?? fromCurrent;
    if (value !== null) points.push(pricePoint(value, stamp[hour - first]!));
  }
  return jsonArray(points);
}
