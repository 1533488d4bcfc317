import {
  loadPriceChanges,
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
};

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
  stats(): { tokens: number; points: number; cutoff: Date | undefined };
  stop(): void;
};

/**
 * The hourly price histories held in memory by each API process, like the token catalogue:
 * loaded from the shared database, followed incrementally by data version (a generation change,
 * i.e. deleted rows, reloads in full). Histories are written on request from the numbers held
 * by concatenating prices kept as JSON number text with the hour's timestamps formatted once:
 * neither serialised histories (memory) nor numbers formatted per request (a double's shortest
 * decimal form is the expensive part; docs/performance.md). Its output is exactly that of the SQL oracle
 * (test/oracles/getPriceHistories.ts): carry-forward, a stablecoin carried from its current
 * price, unknown tokens left out.
 *
 * Only points that can still show are held: those from the cutoff (the window's first hour minus
 * one) on, plus each token's latest one before it. When the hour rolls over, older points are
 * dropped here without asking the database; rows pruned there (prunePricePoints) are older still,
 * so pruning needs no reload. A request for an earlier window than the cutoff (a clock moved
 * back) reloads in full.
 */
export function createPriceHistoryStore(options: PriceHistoryStoreOptions): PriceHistoryStore {
  const clock = options.now ?? (() => new Date());
  let entries = new Map<string, Entry>();
  let cutoff: number | undefined;
  let state: DataVersion | undefined;
  const waitMs = options.waitMs ?? Infinity;
  /** The load under way, and whether it turned out to be a full one (known after its version check). */
  let inFlight: { done: Promise<void>; full: Promise<boolean> } | undefined;

  async function load(now: Date, forceFull: boolean, decided: (full: boolean) => void): Promise<void> {
    const loadCutoff = forceFull || cutoff === undefined ? cutoffFor(hourOf(now)) : cutoff;
    let target = entries;
    let full = false;
    // Incremental rows are applied together at the end (requests never see half a change);
    // a full load fills a new map, swapped in when complete.
    const tokens: PriceTokenRow[] = [];
    const points: PricePointChange[] = [];
    const changes = await loadPriceChanges(
      options.db,
      forceFull ? undefined : state,
      { cutoff: new Date(loadCutoff * HOUR_MS), chunkRows: options.chunkRows },
      {
        begin(c) {
          full = c.full;
          if (full) target = new Map();
          decided(full);
        },
        tokens(rows) {
          if (full) for (const row of rows) setToken(target, row);
          else for (const row of rows) tokens.push(row);
        },
        points(rows) {
          if (full) putPoints(target, rows, loadCutoff);
          else for (const row of rows) points.push(row);
        },
      },
    );
    if (full) {
      entries = target;
      cutoff = loadCutoff;
    } else {
      for (const row of tokens) setToken(entries, row);
      putPoints(entries, points, cutoff ?? loadCutoff);
    }
    state = { version: changes.version, generation: changes.generation };
  }

  function run(now: Date, full: boolean): NonNullable<typeof inFlight> {
    if (!inFlight) {
      let decided!: (full: boolean) => void;
      const isFull = new Promise<boolean>((resolve) => (decided = resolve));
      const done = load(now, full, decided).finally(() => {
        decided(false);
        inFlight = undefined;
      });
      done.catch(() => {});
      inFlight = { done, full: isFull };
    }
    return inFlight;
  }

  // Checks on the wall clock of the moment; a request's own `now` only decides what it covers.
  let checkNow: Date | undefined;
  let lastRun: NonNullable<typeof inFlight> | undefined;
  const gate = createHeldDataGate(
    () => (lastRun = run(checkNow ?? clock(), false)).done,
    () => state !== undefined,
    options.onError,
  );
  const due = () => gate.due(options.staleMs);

  async function refresh(force = false, now = clock()): Promise<void> {
    checkNow = now;
    if (force) return gate.start();
    if (!due()) return;
    if (state === undefined) return gate.beforeRequest(options.staleMs, waitMs, 'price history');
    // Once a check has failed, requests answer from the histories held without waiting.
    if (gate.stale(Infinity)) return void gate.start().catch(() => {});
    const started = Date.now();
    const check = gate.start();
    const run = lastRun!;
    // A full reload (after a reorg) takes seconds on a large table: requests are answered from
    // the data in hand until the new one is swapped in. Incremental loads are waited for, within
    // the same bound as the catalogue's.
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      run.full.then((full) => (full ? 'full' : 'incremental')),
      check.then(() => 'done', () => 'done'),
      ...(Number.isFinite(waitMs) ? [new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), waitMs)))] : []),
    ]);
    clearTimeout(timer);
    if (outcome !== 'incremental') return;
    await gate.beforeRequest(options.staleMs, Math.max(0, waitMs - (Date.now() - started)), 'price history');
  }

  /** Makes sure the points held cover the window at `now`; drops the ones an hour rollover retired. */
  async function cover(now: Date): Promise<void> {
    const wanted = cutoffFor(hourOf(now));
    while (cutoff === undefined || wanted < cutoff) await run(now, true).done;
    if (wanted > cutoff) {
      for (const entry of entries.values()) trim(entry, wanted);
      cutoff = wanted;
    }
  }

  async function ready(now: Date): Promise<number> {
    await refresh(false, now);
    await cover(now);
    return hourOf(now);
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
      const entry = entries.get(address.toLowerCase());
      return entry && serialise(entry, current);
    },
    async histories(addresses, now = clock()) {
      const current = await ready(now);
      const parts: [string, Json<PriceHistory>][] = [];
      for (const address of [...new Set(addresses.map((a) => a.toLowerCase()))].sort()) {
        const entry = entries.get(address);
        if (entry) parts.push([entry.checksum, serialise(entry, current)]);
      }
      return jsonRecord(parts);
    },
    stats() {
      let points = 0;
      for (const entry of entries.values()) points += entry.steps.length;
      return { tokens: entries.size, points, cutoff: cutoff === undefined ? undefined : new Date(cutoff * HOUR_MS) };
    },
    stop: () => clearInterval(timer),
  };
}

function setToken(entries: Map<string, Entry>, row: PriceTokenRow): void {
  const currentPrice = row.currentPrice === null ? null : jsonNumber(row.currentPrice);
  const priceUpdatedAt = row.priceUpdatedAt === null ? null : new Date(row.priceUpdatedAt).getTime();
  const entry = entries.get(row.address);
  if (!entry) {
    entries.set(row.address, { checksum: row.checksumAddress, currentPrice, priceUpdatedAt, firstHour: 0, steps: '', prices: joinJsonNumbers([]) });
    return;
  }
  entry.checksum = row.checksumAddress;
  entry.currentPrice = currentPrice;
  entry.priceUpdatedAt = priceUpdatedAt;
}

/**
 * Stores points in hour order (usually appends or overwrites of the last one). Each token's
 * joined prices are split and joined once per batch of rows, not once per point.
 */
function putPoints(entries: Map<string, Entry>, rows: readonly PricePointChange[], cutoff: number): void {
  const touched = new Map<Entry, { hours: number[]; prices: Json<number>[] }>();
  for (const row of rows) {
    // A point of a token written after the token rows were read: both come with the next load.
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
  for (const [entry, { hours, prices }] of touched) {
    const before = trimmed(hours, cutoff);
    setPoints(entry, hours.slice(before), prices.slice(before));
  }
}

/** The hours of an entry's points, unpacked. */
function hoursOf(entry: Entry): number[] {
  const { steps } = entry;
  if (typeof steps !== 'string') return steps.slice();
  const hours: number[] = [];
  for (let i = 0, hour = entry.firstHour; i < steps.length; i++) hours.push((hour += steps.charCodeAt(i)));
  return hours;
}

/** Stores an entry's points: their hours packed (see Entry.steps), their prices joined. */
function setPoints(entry: Entry, hours: readonly number[], prices: readonly Json<number>[]): void {
  entry.prices = joinJsonNumbers(prices);
  entry.firstHour = hours[0] ?? 0;
  const steps = hours.map((hour, i) => (i === 0 ? 0 : hour - hours[i - 1]!));
  // one flat string (concatenating code units one by one would build a rope of them)
  entry.steps = steps.some((step) => step > 0xffff) ? hours.slice() : String.fromCharCode(...steps);
}

/** How many of `hours` (ascending) to drop so that those from `cutoff` on and the latest one before it stay. */
function trimmed(hours: readonly number[], cutoff: number): number {
  let before = 0;
  while (before < hours.length && hours[before]! < cutoff) before++;
  return Math.max(0, before - 1);
}

/** Keeps the points from `cutoff` on and the latest one before it: the answers stay the same. */
function trim(entry: Entry, cutoff: number): void {
  const { steps } = entry;
  if (steps.length < 2) return;
  // nothing to drop while the second point is from the cutoff on (checked without unpacking: every entry, every hour)
  if ((typeof steps === 'string' ? entry.firstHour + steps.charCodeAt(1) : steps[1]!) >= cutoff) return;
  const hours = hoursOf(entry);
  const before = trimmed(hours, cutoff);
  if (before > 0) setPoints(entry, hours.slice(before), splitJsonNumbers(entry.prices).slice(before));
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
