// Exact times where the window edges move (docs/indexer.md "Block times of the history fill").
// Bucketed history times are exact to the 5-minute bucket only; the API's windows (1 h, 6 h, 24 h,
// 7 d back from the indexed head) compare row times with edges that slide by the second. The rule:
// before figures are computed at a window end, every listed (inexact) bucket that an edge entered
// or crossed since the previous window end gets its rows' own block times, read from the headers
// of the blocks those rows are in, and leaves the list. So a row near an edge is always compared by
// its exact time, and which buckets are fixed depends only on the window ends the checkpoint moved
// through (a restart continues from the stored one), never on timing.
import type { ChainClient } from '../chain/index.ts';
import type { Queryable } from '../db/index.ts';
import { applyExactTimes, loadInexactBuckets } from '../db/indexer/index.ts';
import { fetchHeaders } from './fetchHeaders.ts';
import { PRICE_WINDOWS } from './pricing/priceWindows.ts';

export const BUCKET_MS = 300_000;
const EDGES_MS = Object.values(PRICE_WINDOWS);
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

/** The bucket each edge lies in at the window end `at`. */
export const edgeBuckets = (at: Date): number[] => [...new Set(EDGES_MS.map((ms) => bucketOf(at.getTime() - ms)))];

/**
 * Reads what exactEdgeTimes writes: the listed buckets from each edge's bucket at `previous` (the
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

/** Writes the exact times read and unlists their buckets (inside the step's transaction, before any figure). */
export async function writeEdgeTimes(tx: Queryable, edge: EdgeTimes): Promise<void> {
  await applyExactTimes(tx, edge.times, edge.buckets, edge.behind);
}

/** Blocks whose times a history range interpolated, by the bucket (ms) they lie in. */
export type InexactBlocks = Map<number, number[]>;

/**
 * The same rule for a history range about to be written with figures at `at`: its rows in the
 * buckets the edges are in then get their blocks' own times (patched in place, before the write);
 * returns the range's other inexact buckets that an edge can still reach, to be listed. `split`:
 * `at` is the bootstrap block's time, whose edges the interpolation already splits exactly.
 */
export async function exactRangeAtEdges(
  chain: ChainClient, inexact: InexactBlocks, rows: { swaps: { blockNumber: number; occurredAt: Date }[]; priceChanges: { blockNumber: number; observedAt: Date }[] },
  at: Date, split: boolean,
): Promise<{ listed: Date[]; headersRead: number }> {
  const atEdges = new Set(split ? [] : edgeBuckets(at).filter((b) => inexact.has(b)));
  const blocks = [...atEdges].flatMap((b) => inexact.get(b)!);
  const headers = blocks.length > 0 ? await fetchHeaders(chain, blocks) : new Map();
  const timeOf = (n: number) => (headers.has(n) ? new Date(headers.get(n)!.timestamp * 1000) : undefined);
  for (const swap of rows.swaps) swap.occurredAt = timeOf(swap.blockNumber) ?? swap.occurredAt;
  for (const change of rows.priceChanges) change.observedAt = timeOf(change.blockNumber) ?? change.observedAt;
  const behind = bucketOf(at.getTime() - LONGEST_MS);
  const listed = [...inexact.keys()].filter((b) => !atEdges.has(b) && b >= behind).sort((x, y) => x - y).map((b) => new Date(b));
  return { listed, headersRead: headers.size };
}
