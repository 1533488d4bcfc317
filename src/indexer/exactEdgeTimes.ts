// Exact times where the window edges move (docs/indexer.md "Exact at the moving edges").
// Bucketed history times are exact to the 5-minute bucket only; the API's windows (1 h, 6 h, 24 h,
// 7 d back from the indexed head) compare row times with edges that slide by the second. An
// interpolated time lies in its block's true bucket, so it is off by less than one bucket (L): a
// row stored more than L after an edge is truly after it. The rule: each edge E walks forward
// from the bootstrap block's time B back-dated by it; at the indexed head `at` its region is the
// stored times from the start of the bucket holding B−E to at−E+L (empty at the bootstrap block
// itself, whose interpolation splits each edge's bucket exactly), and every row in a region holds
// its block's own time before figures are computed there. So
// - a forward step fixes the rows in the slice its edges' regions grew by, (prev−E+L, at−E+L]:
//   a few blocks per step, read ahead of the edge (only the first step after the bootstrap reads
//   each edge's starting bucket whole);
// - a history range written after the head moved on fixes its rows in the regions before it writes
//   them, and lists its other interpolated buckets an edge can still reach;
// - a listed bucket a region covers whole is unlisted.
// Which rows are exact depends only on the bootstrap block and the indexed head, never on timing or
// restarts, and every row an edge compares is compared by its block's own time.
import type { ChainClient } from '../chain/index.ts';
import type { Queryable } from '../db/index.ts';
import { applyExactTimes, loadInexactBuckets, type RetimedPriceChange } from '../db/indexer/index.ts';
import { BUCKET_SECONDS } from './bucketedBlockTimes.ts';
import { fetchHeaders } from './fetchHeaders.ts';
import { PRICE_WINDOWS } from './pricing/priceWindows.ts';
import type { EdgeLookahead } from './state/IndexerState.ts';

export const BUCKET_MS = BUCKET_SECONDS * 1000;
/** The API's window lengths (ms): each window's edge is the indexed head's time minus one of them. */
export const WINDOW_EDGES_MS: readonly number[] = Object.values(PRICE_WINDOWS);
const LONGEST_MS = Math.max(...WINDOW_EDGES_MS);
/** How far ahead of each edge rows are made exact: an interpolated time is off by less than this. */
const AHEAD_MS = BUCKET_MS;

export const bucketOf = (t: number) => Math.floor(t / BUCKET_MS) * BUCKET_MS;

/** Edge E's region at the head `at`: stored times in [from, to] (ms); null at the bootstrap block. */
function regionOf(ms: number, bootstrap: Date, at: Date): { from: number; to: number } | null {
  if (at.getTime() <= bootstrap.getTime()) return null;
  return { from: bucketOf(bootstrap.getTime() - ms), to: at.getTime() - ms + AHEAD_MS };
}

/** Whether the stored time `t` (ms) lies in some edge's region at `at`: its row must hold its block's own time. */
export function inEdgeRegion(t: number, bootstrap: Date, at: Date): boolean {
  return WINDOW_EDGES_MS.some((ms) => {
    const region = regionOf(ms, bootstrap, at);
    return region !== null && t >= region.from && t <= region.to;
  });
}

/** Whether some edge's region at `at` holds bucket `b` (ms) whole: every row in it is exact. */
export function bucketCovered(b: number, bootstrap: Date, at: Date): boolean {
  return WINDOW_EDGES_MS.some((ms) => {
    const region = regionOf(ms, bootstrap, at);
    return region !== null && b >= region.from && b + BUCKET_MS <= region.to;
  });
}

export type EdgeTimes = {
  /** The exact time of each block with rows in the slices read. */
  times: Map<number, Date>;
  /** Listed buckets now covered whole, and the oldest bucket any edge still reaches: both unlisted. */
  covered: Date[];
  behind: Date;
  headersRead: number;
};

/** Block times read for the edges, kept between steps: a row fixed ahead of its slice is met again there. */
export type EdgeTimeCache = Map<number, Date>;
const CACHE_LIMIT = 20_000;

/**
 * Headers read before the edges need them, kept between steps. Each forward step also reads up to
 * AHEAD_PER_STEP headers of the rows in listed buckets the edges' regions reach within AHEAD_READ_MS,
 * oldest queued first: a head that jumps (a block minutes after the one before, the regions growing
 * by minutes at once) then finds its slices' times in the cache instead of reading minutes of blocks
 * per edge in one step. Only when a header is read changes, never which rows get exact times or when
 * (that stays the rule above); every header read ahead is one a region reaches later, so reading
 * ahead adds no requests, unless a restart or reorg drops what was read.
 */
export type { EdgeLookahead };
export const createEdgeLookahead = (): EdgeLookahead => ({ through: new Map(), queue: [] });
/** How far ahead of each region's end headers are read ahead (longer than the usual gaps between blocks). */
export const AHEAD_READ_MS = 5 * 60_000;
/** Headers read ahead per step at most: above the ~4 a step's slices use, so the lookahead builds up and refills. */
export const AHEAD_PER_STEP = 12;
const QUEUE_LIMIT = 10_000;

/**
 * Reads what writeEdgeTimes writes for a forward step from the window end `previous` (the stored
 * figures' time) to `at`: the blocks of the rows in listed buckets whose stored times lie in the
 * slices the regions grew by, and their headers (those not in `cache`). `bootstrap`: the bootstrap
 * block and its time (null for an index stored without it: the regions then start at `previous`);
 * rows above that block hold their own times already. With `lookahead`, some headers are read ahead too.
 * Outside any transaction (it reads the chain).
 */
export async function readEdgeTimes(
  db: Queryable, chain: ChainClient, bootstrap: { block: number; time: Date } | null, previous: Date, at: Date, cache: EdgeTimeCache,
  lookahead?: EdgeLookahead,
): Promise<EdgeTimes> {
  const behind = new Date(bucketOf(at.getTime() - LONGEST_MS));
  const start = bootstrap?.time ?? previous;
  const slices = at.getTime() <= previous.getTime() ? [] : WINDOW_EDGES_MS.flatMap((ms) => {
    const now = regionOf(ms, start, at);
    if (!now) return [];
    const before = regionOf(ms, start, previous);
    // (after, through]: the region's growth since `previous` (the whole region when it was empty).
    return [{ after: new Date(before ? before.to : now.from - 1), through: new Date(now.to) }];
  });
  const coveredSpans = WINDOW_EDGES_MS.flatMap((ms) => {
    const region = regionOf(ms, start, at);
    return region ? [{ from: new Date(region.from), to: new Date(region.to - BUCKET_MS) }] : [];
  });
  const { blocks, covered } = await loadInexactBuckets(db, slices, coveredSpans, bootstrap?.block ?? null);
  const ahead = lookahead ? await readAheadOf(db, lookahead, start, at, bootstrap?.block ?? null, cache, new Set(blocks)) : [];
  const { times, headersRead } = await blockTimes(chain, blocks, cache, ahead);
  return { times, covered, behind, headersRead };
}

/**
 * The blocks whose headers a step reads ahead: the lookahead's queue grown by the rows in listed
 * buckets stored in each region's next AHEAD_READ_MS not queued yet, then up to AHEAD_PER_STEP of it
 * not in `cache` nor in `needed` (read anyway).
 */
async function readAheadOf(
  db: Queryable, lookahead: EdgeLookahead, start: Date, at: Date, through: number | null, cache: EdgeTimeCache, needed: ReadonlySet<number>,
): Promise<number[]> {
  const slices = WINDOW_EDGES_MS.flatMap((ms) => {
    const region = regionOf(ms, start, at);
    if (!region) return [];
    const until = region.to + AHEAD_READ_MS;
    const after = Math.max(lookahead.through.get(ms) ?? region.to, region.to);
    if (until <= after) return [];
    lookahead.through.set(ms, until);
    return [{ after: new Date(after), through: new Date(until) }];
  });
  if (slices.length > 0) {
    const { blocks } = await loadInexactBuckets(db, slices, [], through);
    for (const n of blocks) if (!cache.has(n)) lookahead.queue.push(n);
    if (lookahead.queue.length > QUEUE_LIMIT) lookahead.queue.splice(0, lookahead.queue.length - QUEUE_LIMIT);
  }
  const ahead = new Set<number>();
  let taken = 0;
  while (ahead.size < AHEAD_PER_STEP && taken < lookahead.queue.length) {
    const n = lookahead.queue[taken++]!;
    if (!cache.has(n) && !needed.has(n)) ahead.add(n);
  }
  lookahead.queue.splice(0, taken);
  return [...ahead];
}

/**
 * The blocks' own times, from `cache` or their headers (kept in `cache`, the oldest dropped first);
 * the headers of `ahead` are read with them, into `cache` only.
 */
async function blockTimes(
  chain: ChainClient, blocks: readonly number[], cache: EdgeTimeCache, ahead: readonly number[] = [],
): Promise<{ times: Map<number, Date>; headersRead: number }> {
  const unknown = [...blocks.filter((n) => !cache.has(n)), ...ahead];
  const headers = unknown.length > 0 ? await fetchHeaders(chain, unknown) : new Map();
  for (const [n, h] of headers) cache.set(n, new Date(h.timestamp * 1000));
  const times = new Map(blocks.map((n) => [n, cache.get(n)!] as const));
  for (const n of cache.keys()) {
    if (cache.size <= CACHE_LIMIT) break;
    cache.delete(n);
  }
  return { times, headersRead: headers.size };
}

/**
 * Writes the exact times read and unlists the covered buckets (inside the step's transaction,
 * before any figure). Returns the price changes that got new times.
 */
export async function writeEdgeTimes(tx: Queryable, edge: EdgeTimes): Promise<RetimedPriceChange[]> {
  return applyExactTimes(tx, edge.times, edge.covered, edge.behind);
}

/**
 * Which current prices' times the retimed price changes move. A price's `observedAt` is the time
 * of its latest change (block `blockNumber`): moved when that row is retimed. Its `valueSince` is
 * the time of the first change of its current value, an older row in general; since a retimed row
 * stays in its true bucket, that row can be among them only if some retimed change of the token now
 * lies in the bucket of the stored `valueSince`: `valueSince` is to be read again for those tokens.
 * Any other retimed change leaves the price's times, and so its token row, as they are.
 */
export function pricesRetimed(
  prices: ReadonlyMap<string, { blockNumber: number; valueSince: Date }>, retimed: readonly RetimedPriceChange[],
): { latest: Map<string, Date>; valueStart: string[] } {
  const latest = new Map<string, Date>();
  const valueStart = new Set<string>();
  for (const change of retimed) {
    const price = prices.get(change.token);
    if (!price) continue;
    if (change.blockNumber === price.blockNumber) latest.set(change.token, change.observedAt);
    if (bucketOf(change.observedAt.getTime()) === bucketOf(price.valueSince.getTime())) valueStart.add(change.token);
  }
  return { latest, valueStart: [...valueStart].sort() };
}

/** Blocks whose times a history range interpolated, by the bucket (ms) they lie in. */
export type InexactBlocks = Map<number, number[]>;

type TimedRows = { swaps: { blockNumber: number; occurredAt: Date }[]; priceChanges: { blockNumber: number; observedAt: Date }[] };

/**
 * The same rule for a history range about to be written with figures at `at`: its interpolated
 * rows in the edges' regions get their blocks' own times (patched in place, before the write);
 * returns the range's other inexact buckets that an edge can still reach, to be listed. `bootstrap`:
 * the bootstrap block's time (unknown: the regions start at `at`, and are empty).
 */
export async function exactRangeAtEdges(
  chain: ChainClient, inexact: InexactBlocks, rows: TimedRows, at: Date, bootstrap: Date | null, cache: EdgeTimeCache,
): Promise<{ listed: Date[]; headersRead: number }> {
  const start = bootstrap ?? at;
  const interpolated = new Set([...inexact.values()].flat());
  const timed = [...rows.swaps.map((r) => ({ n: r.blockNumber, t: r.occurredAt })), ...rows.priceChanges.map((r) => ({ n: r.blockNumber, t: r.observedAt }))];
  const blocks = timed.filter((r) => interpolated.has(r.n) && inEdgeRegion(r.t.getTime(), start, at)).map((r) => r.n);
  const { times, headersRead } = await blockTimes(chain, [...new Set(blocks)], cache);
  for (const swap of rows.swaps) swap.occurredAt = times.get(swap.blockNumber) ?? swap.occurredAt;
  for (const change of rows.priceChanges) change.observedAt = times.get(change.blockNumber) ?? change.observedAt;
  const behind = bucketOf(at.getTime() - LONGEST_MS);
  const listed = [...inexact.keys()].filter((b) => b >= behind && !bucketCovered(b, start, at)).sort((x, y) => x - y).map((b) => new Date(b));
  return { listed, headersRead };
}
