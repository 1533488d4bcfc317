// Block times of a history range without a header per block (INDEXER_HISTORY_BLOCK_TIMES=bucketed,
// docs/indexer.md "Block times of the history fill"). The rule:
// - a block whose log carries `blockTimestamp`, or whose time is already stored, has its exact time;
// - otherwise headers are read only at bucket boundaries: for every UTC multiple of 300 s the range
//   touches (from the boundary at or before its lowest block's time to the first one after its
//   highest), and for each edge of the API's windows back from the bootstrap head, the exact
//   first block at or after it is found by search (findFirstBlockAt.ts), that block and the one
//   before it read;
// - any other block gets its time interpolated linearly, rounded down, between the first block of
//   its (sub-)bucket and the last one (the block before the next boundary's first block; the
//   bootstrap block `limit` while the bucket is still open there), or the nearest exact times inside
//   it. A range starts at a bucket's first block (bucketStartOf), so all of them are at hand.
// So every block's time lies in its true 5-minute bucket (and on the true side of every edge): hourly
// points and candles of 5 minutes and up are exact, times never decrease with the block number, and
// only the second inside the bucket is approximate. A block's time depends on its bucket alone,
// never on how the history was cut into ranges (a restart ends with the same rows). The API's
// windows slide with the head: before an edge reaches a bucket with interpolated times, its rows get
// their blocks' own times (`inexact` says which blocks; exactEdgeTimes.ts).
import type { ChainClient, RawLog } from '../chain/index.ts';
import type { BlockTimes } from './blockTimes.ts';
import { fetchHeaders } from './fetchHeaders.ts';
import { findFirstBlockAt, HeaderTimes } from './findFirstBlockAt.ts';

/** Seconds per bucket: hourly points and 5-minute candles are whole buckets. */
export const BUCKET_SECONDS = 300;

/**
 * Header times and each boundary's first block, kept between ranges (chain facts: dropped on a
 * reorg); `stamped`: the last range's logs carried every time (no range start is aligned then).
 */
export type BlockTimeCache = { headers: Map<number, number>; firstAt: Map<number, number>; stamped?: boolean };

export const emptyBlockTimeCache = (): BlockTimeCache => ({ headers: new Map(), firstAt: new Map() });

/**
 * Where a bucketed history range starts: the first block of the 5-minute bucket `block` is in (not
 * below `floor`). Each bucket then lies inside one range, with every exact time in it (logs, stored)
 * at hand, so a block's time depends on its bucket alone (not on where ranges are cut) and never
 * decreases across ranges. `block` itself while the logs carry every time.
 */
export async function bucketStartOf(chain: ChainClient, block: number, floor: number, limit: number, cache: BlockTimeCache): Promise<{ block: number; headersRead: number }> {
  if (block <= floor || cache.stamped) return { block, headersRead: 0 };
  const times = new HeaderTimes(chain, [...cache.headers].filter(([n]) => n <= limit));
  const target = Math.floor((await times.read(block)) / BUCKET_SECONDS) * BUCKET_SECONDS;
  let first = cache.firstAt.get(target);
  if (first === undefined) {
    // Not null: `block` itself is at or after the boundary.
    first = (await findFirstBlockAt(times, target, floor, limit))!;
    cache.firstAt.set(target, first);
  }
  for (const [n, s] of times.entries()) cache.headers.set(n, s);
  return { block: first, headersRead: times.headersRead };
}

export type BucketedInput = {
  logs: readonly RawLog[];
  /** The blocks a time is asked for, all within [low, high]. */
  blocks: Iterable<number>;
  /** Exact times already stored (a token's first block). */
  known?: ReadonlyMap<number, Date>;
  /** The range's lowest block (its header is read when unknown) and highest block with its time (exact, or as interpolated by the range above). */
  low: number;
  high: { block: number; time: Date };
  /**
   * The lowest block there is (the start block) and the highest one times are found for (the
   * bootstrap block: above it the forward index reads headers), with its time when known (else read):
   * searches stay inside, and the bucket still open there ends at it.
   */
  floor: number;
  limit: { block: number; time?: Date };
  /**
   * Further exact boundaries, seconds back from `limit`'s time (the API's windows back from the
   * bootstrap head): fixed for the whole fill, so times stay independent of the ranges.
   */
  edgesBack?: readonly number[];
  cache?: BlockTimeCache;
};

const secondsOf = (d: Date) => Math.floor(d.getTime() / 1000);

export async function bucketedBlockTimes(chain: ChainClient, input: BucketedInput): Promise<BlockTimes> {
  const exact = new Map<number, number>();
  for (const [n, at] of input.known ?? []) exact.set(n, secondsOf(at));
  for (const log of input.logs) if (log.blockTimestamp !== undefined) exact.set(log.blockNumber, log.blockTimestamp);
  const wanted = [...new Set(input.blocks)].filter((n) => !exact.has(n));
  // The next range need not start at a bucket's first block when the node put a time in every log
  // and no other block needed one. Not when the times all came from the database (the creation
  // blocks of the oldest history): the next range would be cut apart from a restarted process's.
  if (input.cache) input.cache.stamped = input.logs.length > 0 && input.logs.every((l) => l.blockTimestamp !== undefined) && wanted.every((n) => n === input.low);
  if (wanted.length === 0) return { timeOf: (n) => timeFrom(exact, n), headersRead: 0 };
  if (wanted.every((n) => n === input.low)) {
    // Every other block's time came with its logs: the range's lowest block alone is read.
    const header = await fetchHeaders(chain, [input.low]);
    exact.set(input.low, header.get(input.low)!.timestamp);
    return { timeOf: (n) => timeFrom(exact, n), headersRead: 1 };
  }
  const outside = wanted.find((n) => n < input.low || n > input.high.block);
  if (outside !== undefined) throw new Error(`block ${outside}: outside the range [${input.low}, ${input.high.block}]`);

  const cache = input.cache ?? emptyBlockTimeCache();
  // Only the headers near the range (the next range lies below): the cache stays small.
  const span = input.high.block - input.low + 1;
  const nearby = (n: number) => (n >= input.low - 2 * span && n <= input.high.block + 2 * span) || n === input.limit.block;
  const near = [...cache.headers].filter(([n]) => nearby(n) && n <= input.limit.block);
  const times = new HeaderTimes(chain, input.limit.time ? [...near, [input.limit.block, secondsOf(input.limit.time)]] : near);
  const limitTime = await times.read(input.limit.block);
  const lowTime = await times.read(input.low);
  // The range's highest block's time places its bucket (it may be interpolated: it is in the right one).
  const highTime = secondsOf(input.high.time);

  const firstAt = new Map<number, number | null>();
  const find = async (target: number, cached: boolean) => {
    let first: number | null | undefined = cached ? cache.firstAt.get(target) : undefined;
    if (first === undefined) {
      first = await findFirstBlockAt(times, target, input.floor, input.limit.block);
      // A boundary not reached yet is searched again next time (the head moves).
      if (cached && first !== null) cache.firstAt.set(target, first);
    }
    // The bucket's ends: the boundary's first block and the one before it (free when cached).
    if (first !== null) await times.read(first, ...(first > input.floor ? [first - 1] : []));
    firstAt.set(target, first);
  };
  const bottom = Math.floor(lowTime / BUCKET_SECONDS) * BUCKET_SECONDS;
  const top = Math.floor(highTime / BUCKET_SECONDS) * BUCKET_SECONDS + BUCKET_SECONDS;
  for (let t = bottom; t <= top; t += BUCKET_SECONDS) await find(t, true);
  // An edge inside any bucket the range touches splits it, whichever range holds the edge itself.
  for (const edge of (input.edgesBack ?? []).map((s) => limitTime - s)) if (edge > bottom && edge < top && !firstAt.has(edge)) await find(edge, false);

  cache.headers = new Map(times.entries().filter(([n]) => nearby(n)));
  for (const [t, n] of cache.firstAt) if (!nearby(n) || !nearby(n - 1)) cache.firstAt.delete(t);

  // A (sub-)bucket runs from the first block of a boundary to the block before the next one's (the
  // indexed head while the next boundary is not reached). Its ends' times are read; exact times of
  // blocks inside it (logs, stored) are ends too, so times never decrease with the block number.
  const starts = [...new Set([...firstAt.values()].filter((n): n is number => n !== null))].sort((x, y) => x - y);
  const exactBlocks = [...exact.keys()].sort((x, y) => x - y);
  // The exact blocks a time is interpolated between (n itself when its time is exact).
  const segmentOf = (n: number): [number, number] => {
    if (exact.has(n)) return [n, n];
    const i = lastAtOrBelow(starts, n);
    if (i < 0) throw new Error(`block ${n}: below the first boundary searched`);
    let from = starts[i]!;
    let to = i + 1 < starts.length ? starts[i + 1]! - 1 : input.limit.block;
    const j = lastAtOrBelow(exactBlocks, n);
    if (j >= 0 && exactBlocks[j]! > from) from = exactBlocks[j]!;
    if (j + 1 < exactBlocks.length && exactBlocks[j + 1]! < to) to = exactBlocks[j + 1]!;
    return [from, to];
  };
  const timeOf = (n: number): number => {
    const [from, to] = segmentOf(n);
    const t0 = exact.get(from) ?? times.get(from)!;
    const t1 = exact.get(to) ?? times.get(to)!;
    return to === from ? t0 : t0 + Math.floor(((t1 - t0) * (n - from)) / (to - from));
  };
  return { timeOf: (n) => new Date(timeOf(n) * 1000), headersRead: times.headersRead, inexact: (n) => !segmentOf(n).includes(n) };
}

function timeFrom(exact: Map<number, number>, n: number): Date {
  const s = exact.get(n);
  if (s === undefined) throw new Error(`block ${n}: no time was read for it`);
  return new Date(s * 1000);
}

/** Index of the last element ≤ n in an ascending list (−1: none). */
function lastAtOrBelow(sorted: readonly number[], n: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= n) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
