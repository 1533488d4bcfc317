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
import { jsonArray, jsonNumber, jsonObjectWriter, jsonRecord, toJson, type Json } from '../json.ts';
import { createPackedHistories, estimatedBytes, type History, type PackedHistories } from './createPackedHistories.ts';
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

/** Default bound of the histories held (PriceHistoryStoreOptions.maxBytes). */
export const PRICE_HISTORY_MAX_BYTES = 64 * 1024 * 1024;
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
   * The most the histories held may take (their records' bytes and an estimate of their V8 heap,
   * see createPackedHistories; default PRICE_HISTORY_MAX_BYTES, every history of a
   * 100,000-token catalogue):
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
  /**
   * The fill starts once this settles (main: the token catalogue's first load, which the fill's
   * queries would otherwise slow down on PGlite, where both run on one thread: start-up waits for
   * the catalogue, not for the histories).
   */
  fillAfter?: PromiseLike<unknown>;
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
 * one) on, plus each token's latest one before it. When the hour rolls over, the points that left
 * the window are dropped from a history when it is next read or changed (not in one pass over
 * every history held, which would hold a request), without asking the database; rows pruned there (prunePricePoints) are older still,
 * so pruning needs no reload. A request for an earlier window than the cutoff (a clock moved
 * back) forgets what is held.
 *
 * A miss's rows are kept only when no load applied a change meanwhile, none is under way when
 * they arrive, and the cutoff did not move (`epoch`, `loading`): they were then read at the
 * version held or later, and the next incremental load (rows stamped above the version held: the
 * latest values, applied over them) leaves them current. Otherwise they answer that request and
 * are not kept. A check that finds the version unchanged applies nothing and invalidates no read:
 * the polls (every second) would otherwise discard many of the fill's reads.
 */
export function createPriceHistoryStore(options: PriceHistoryStoreOptions): PriceHistoryStore {
  const clock = options.now ?? (() => new Date());
  const maxBytes = options.maxBytes ?? PRICE_HISTORY_MAX_BYTES;
  /** The histories held, in the order eviction passes them (see PackedHistories.evict). */
  const held = createPackedHistories();
  let cutoff: number | undefined;
  let state: DataVersion | undefined;
  /** Moves on whenever a load applies a change, or the cutoff moves (see the rule above). */
  let epoch = 0;
  const waitMs = options.waitMs ?? Infinity;
  let loading = false;
  /** Settles when the load under way (if any) has applied or failed. */
  let loadSettled: Promise<void> = Promise.resolve();
  /** Counts the background fills started: a fill stops when another one starts, or on stop(). */
  let fills = 0;

  function forgetAll(): void {
    held.clear();
  }

  async function load(now: Date): Promise<void> {
    let settle!: () => void;
    loadSettled = new Promise((resolve) => (settle = resolve));
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
        applyChanges(held, tokens, points, cutoff ?? cutoffFor(hourOf(now)));
        held.evict(maxBytes);
      }
      if (full || changes.version !== state?.version || changes.generation !== state.generation) epoch++;
      state = { version: changes.version, generation: changes.generation };
    } finally {
      loading = false;
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

  /** Makes sure the points held cover the window at `now`; moves the cutoff when the hour rolled over. */
  function cover(now: Date): number {
    const wanted = cutoffFor(hourOf(now));
    if (cutoff === undefined || wanted < cutoff) {
      // points before the cutoff held were dropped: forget every history, each is read again when asked for
      forgetAll();
      cutoff = wanted;
      epoch++;
    } else if (wanted > cutoff) {
      // the points that left the window are dropped from each history when it is next read or changed (lookup, applyChanges)
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
    if (options.fillAfter) await Promise.resolve(options.fillAfter).catch(() => {});
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
      for (const [address, history] of historiesOf(read, from)) {
        if (held.has(address)) continue;
        if (held.bytes + estimatedBytes(history) > maxBytes) return;
        held.set(address, history);
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
  async function lookup(addresses: readonly string[], now: Date): Promise<Map<string, History>> {
    const found = new Map<string, History>();
    const missing: string[] = [];
    const from = cover(now);
    for (const address of addresses) {
      const history = held.get(address, true);
      if (!history) missing.push(address);
      else {
        if (trim(history, from)) held.set(address, history);
        found.set(address, history);
      }
    }
    if (missing.length === 0) return found;
    const at = epoch;
    const read = await loadPriceHistoriesOf(options.db, missing, new Date(from * HOUR_MS));
    const keep = at === epoch && !loading;
    for (const [address, history] of historiesOf(read, from)) {
      found.set(address, history);
      // (read twice by concurrent requests: the later one replaces the other)
      if (keep) held.set(address, history, true);
    }
    if (keep) held.evict(maxBytes);
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
      const history = (await lookup([key], now)).get(key);
      return history && serialise(history, current);
    },
    async histories(addresses, now = clock()) {
      const current = await ready(now);
      const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))].sort();
      const found = await lookup(wanted, now);
      const parts: [string, Json<PriceHistory>][] = [];
      for (const address of wanted) {
        const history = found.get(address);
        if (history) parts.push([history.checksum, serialise(history, current)]);
      }
      return jsonRecord(parts);
    },
    stats() {
      return { tokens: held.size, points: held.points(), bytes: held.bytes, cutoff: cutoff === undefined ? undefined : new Date(cutoff * HOUR_MS) };
    },
    stop() {
      clearInterval(timer);
      gate.stop();
      fills++;
    },
  };
}

/** A token's history with no points yet. */
function tokenHistory(row: PriceTokenRow): History {
  const history: History = { checksum: '', currentPrice: null, priceUpdatedAt: null, hours: [], prices: [] };
  setToken(history, row);
  return history;
}

function setToken(history: History, row: PriceTokenRow): void {
  history.checksum = row.checksumAddress;
  history.currentPrice = row.currentPrice === null ? null : jsonNumber(row.currentPrice);
  history.priceUpdatedAt = row.priceUpdatedAt === null ? null : new Date(row.priceUpdatedAt).getTime();
}

/** Stores a point in hour order (usually an append, or an overwrite of the last one). */
function putPoint(history: History, hour: number, price: Json<number>): void {
  const { hours, prices } = history;
  let i = hours.length;
  while (i > 0 && hours[i - 1]! > hour) i--;
  if (i > 0 && hours[i - 1] === hour) prices[i - 1] = price;
  else {
    hours.splice(i, 0, hour);
    prices.splice(i, 0, price);
  }
}

/** Keeps the points from `cutoff` on and the latest one before it: the answers stay the same. Returns whether any was dropped. */
function trim(history: History, cutoff: number): boolean {
  const { hours } = history;
  let before = 0;
  while (before < hours.length && hours[before]! < cutoff) before++;
  if (before < 2) return false;
  hours.splice(0, before - 1);
  history.prices.splice(0, before - 1);
  return true;
}

/** The histories of rows read for tokens not held (a miss, a fill chunk), by address. */
function historiesOf(read: { tokens: PriceTokenRow[]; points: PricePointChange[] }, cutoff: number): Map<string, History> {
  const histories = new Map<string, History>();
  for (const row of read.tokens) histories.set(row.address, tokenHistory(row));
  for (const row of read.points) {
    const history = histories.get(row.token);
    if (history) putPoint(history, row.hour, jsonNumber(row.price));
  }
  for (const history of histories.values()) trim(history, cutoff);
  return histories;
}

/**
 * Applies an incremental load to the histories held (the others are read as they are when asked
 * for): each history changed is unpacked, changed and packed once, not once per row.
 */
function applyChanges(held: PackedHistories, tokens: readonly PriceTokenRow[], points: readonly PricePointChange[], cutoff: number): void {
  const changed = new Map<string, History>();
  const touch = (address: string): History | undefined => {
    let history = changed.get(address);
    if (!history && (history = held.get(address))) changed.set(address, history);
    return history;
  };
  for (const row of tokens) {
    const history = touch(row.address);
    if (history) setToken(history, row);
  }
  // A token not held, or a point written after the token rows were read (both come with the next load).
  for (const row of points) {
    const history = touch(row.token);
    if (history) putPoint(history, row.hour, jsonNumber(row.price));
  }
  for (const [address, history] of changed) {
    trim(history, cutoff);
    held.set(address, history);
  }
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
function serialise(history: History, current: number): Json<PriceHistory> {
  const first = current - (HISTORY_HOURS - 1);
  const stamp = stampsFor(current);
  const { hours, prices } = history;
  let i = 0;
  let price: Json<number> | null = null;
  while (i < hours.length && hours[i]! < first) price = prices[i++]!;
  const points: Json<PricePoint>[] = [];
  for (let hour = first; hour <= current; hour++) {
    if (i < hours.length && hours[i] === hour) price = prices[i++]!;
    const fromCurrent = history.priceUpdatedAt !== null && history.priceUpdatedAt < (hour + 1) * HOUR_MS ? history.currentPrice : null;
    const value = price ?? fromCurrent;
    if (value !== null) points.push(pricePoint(value, stamp[hour - first]!));
  }
  return jsonArray(points);
}
