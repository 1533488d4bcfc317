// Exact times where the window edges move (docs/indexer.md "Exact at the moving edges").
// Bucketed history times are exact to the 5-minute bucket only; the API's windows (1 h, 6 h, 24 h,
// 7 d back from the indexed head) compare row times with edges that slide by the second. Each edge
// walks forward from the bootstrap block's time back-dated by its window; the buckets it has
// reached (from that start to the bucket it is in at the indexed head) are its passed region. The
// rule: every row in a passed region holds its block's own time before figures are computed there.
// - a forward step, before it computes figures at its window end, fixes every listed (inexact)
//   bucket an edge entered or crossed since the previous window end (the stored checkpoint's time);
// - a history range written after the head moved on fixes its rows in the passed regions before it
//   writes them, and lists its other inexact buckets that an edge can still reach.
// So which rows are exact depends only on the bootstrap block and the indexed head, never on timing
// or restarts, and every row an edge compares is compared by its block's own time.
import type { ChainClient } from '../chain/index.ts';
import type { Queryable } from '../db/index.ts';
import { applyExactTimes, loadInexactBuckets } from '../db/indexer/index.ts';
import { BUCKET_SECONDS } from './bucketedBlockTimes.ts';
import { fetchHeaders } from './fetchHeaders.ts';
import { PRICE_WINDOWS } from './pricing/priceWindows.ts';

export const BUCKET_MS = BUCKET_SECONDS * 1000;
/** The API's window lengths (ms): each window's edge is the indexed head's time minus one of them. */
export const WINDOW_EDGES_MS: readonly number[] = Object.values(PRICE_WINDOWS);
const EDGES_MS = WINDOW_EDGES_MS;
const LONGEST_MS = Math.max(...EDGES_MS);

export type EdgeTimes = {
  /** The buckets fixed and the exact time of each block with rows in them. */
  buckets: Date[];
  times: Map<number, Date>;
  /** Buckets older than this are behind every edge: unlisted. */
  behind: Date;
  headersRead: number;
};

export const bucketOf = (t: number) => Math.floor(t / BUCKET_MS) * BUCKET_MS;

/**
 * Whether some edge has reached bucket `b` (ms) between the bootstrap time and the window end `at`:
 * from the bucket it started in to the one it is in now, both included.
 */
export function edgePassed(b: number, bootstrap: Date, at: Date): boolean {
  return EDGES_MS.some((ms) => b >= bucketOf(bootstrap.getTime() - ms) && b <= bucketOf(at.getTime() - ms));
}

/**
 * Reads what writeEdgeTimes writes: the listed buckets from each edge's bucket at `previous` (the
 * window end the stored figures are for) to its position at `at`, and their blocks' headers.
 * Outside any transaction (it reads the chain).
 */
export async function readEdgeTimes(db: Queryable, chain: ChainClient, previous: Date, at: Date): Promise<EdgeTimes> {
  const low = Math.min(previous.getTime(), at.getTime());
  const spans = EDGES_MS.map((ms) => ({ from: new Date(bucketOf(low - ms)), to: new Date(at.getTime() - ms) }));
  const { buckets, blocks } = await loadInexactBuckets(db, spans);
  const headers = blocks.length > 0 ? await fetchHeaders(chain, blocks) : new Map();
  const times = new Map([...headers].map(([n, h]) => [n, new Date(h.timestamp * 1000)] as const));
  return { buckets, times, behind: new Date(bucketOf(at.getTime() - LONGEST_MS)), headersRead: headers.size };
}

/**
 * Writes the exact times read and unlists their buckets (inside the step's transaction, before any
 * figure). Returns the tokens whose price changes got new times.
 */
export async function writeEdgeTimes(tx: Queryable, edge: EdgeTimes): Promise<string[]> {
  return applyExactTimes(tx, edge.times, edge.buckets, edge.behind);
}

/** Blocks whose times a history range interpolated, by the bucket (ms) they lie in. */
export type InexactBlocks = Map<number, number[]>;

type TimedRows = { swaps: { blockNumber: number; occurredAt: Date }[]; priceChanges: { blockNumber: number; observedAt: Date }[] };

/**
 * The same rule for a history range about to be written with figures at `at`: its rows in the
 * edges' passed regions get their blocks' own times (patched in place, before the write); returns
 * the range's other inexact buckets that an edge can still reach, to be listed. `bootstrap`: the
 * bootstrap block's time (unknown: only the buckets the edges are in at `at` count as passed).
 * `atBootstrap`: the indexed head is the bootstrap block, where the interpolation already splits
 * each edge's bucket exactly at the edge: nothing is patched, and the first forward step fixes those
 * buckets as its edges move.
 */
export async function exactRangeAtEdges(
  chain: ChainClient, inexact: InexactBlocks, rows: TimedRows, at: Date, bootstrap: Date | null, atBootstrap: boolean,
): Promise<{ listed: Date[]; headersRead: number }> {
  const start = bootstrap ?? at;
  const split = atBootstrap;
  const passed = new Set([...inexact.keys()].filter((b) => !split && edgePassed(b, start, at)));
  const blocks = [...passed].flatMap((b) => inexact.get(b)!);
  const headers = blocks.length > 0 ? await fetchHeaders(chain, blocks) : new Map();
  const timeOf = (n: number) => (headers.has(n) ? new Date(headers.get(n)!.timestamp * 1000) : undefined);
  for (const swap of rows.swaps) swap.occurredAt = timeOf(swap.blockNumber) ?? swap.occurredAt;
  for (const change of rows.priceChanges) change.observedAt = timeOf(change.blockNumber) ?? change.observedAt;
  const behind = bucketOf(at.getTime() - LONGEST_MS);
  const listed = [...inexact.keys()].filter((b) => !passed.has(b) && b >= behind).sort((x, y) => x - y).map((b) => new Date(b));
  return { listed, headersRead: headers.size };
}
