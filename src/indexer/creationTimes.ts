// Times of the bootstrap's pool-creation and token first-seen blocks when logs carry no
// `blockTimestamp` (INDEXER_HISTORY_BLOCK_TIMES=bucketed, the default; docs/indexer.md "Block
// times"). The rule:
// - a block whose log carries `blockTimestamp` has its exact time;
// - a block less than EXACT_WITHIN_SECONDS (31 days) older than the head has its header read: its
//   time is exact, so every age the security score tells apart (hours under a day, the 1-, 7- and
//   30-day tiers) is exact;
// - an older block's time lies in its true UTC day: per day that holds such blocks, its first one
//   and the last block of the day (found by search, findFirstBlockAt.ts) are read, and a block
//   between them is interpolated linearly (rounded down) between the nearest headers read around
//   it inside that day. Its age may read a day more or less than the truth, never under 30 days.
// Cost: a few headers per UTC day that holds old creation blocks instead of one header per block.
import type { ChainClient, RawLog } from '../chain/index.ts';
import type { BlockTimes } from './blockTimes.ts';
import { findFirstBlockAt, HeaderTimes } from './findFirstBlockAt.ts';
import { SCORE_WEIGHTS } from './trust/securityScore.ts';

const DAY_SECONDS = 86_400;
/** Blocks younger than this at the head get exact times: one day past the score's largest age tier (30 days). */
export const EXACT_WITHIN_SECONDS =
  (Math.max(...[...SCORE_WEIGHTS.tokenAge, ...SCORE_WEIGHTS.poolAge].map(([days]) => days)) + 1) * DAY_SECONDS;

export type CreationTimesInput = {
  logs: readonly RawLog[];
  /** The blocks a time is asked for, none above `head`. */
  blocks: Iterable<number>;
  head: { block: number; time: Date };
  /** The lowest block searches may read (the start block). */
  floor: number;
};

export async function creationBlockTimes(chain: ChainClient, input: CreationTimesInput): Promise<BlockTimes> {
  const exact = new Map<number, number>();
  for (const log of input.logs) if (log.blockTimestamp !== undefined) exact.set(log.blockNumber, log.blockTimestamp);
  const headSeconds = Math.floor(input.head.time.getTime() / 1000);
  exact.set(input.head.block, headSeconds);
  const wanted = [...new Set(input.blocks)].filter((n) => !exact.has(n)).sort((a, b) => a - b);
  const times = new HeaderTimes(chain, [[input.head.block, headSeconds]]);
  const interpolated = new Map<number, number>();
  if (wanted.length > 0) {
    // The first block at or after head − 31 days: it and everything above is read exactly.
    const recent = (await findFirstBlockAt(times, headSeconds - EXACT_WITHIN_SECONDS, input.floor, input.head.block))!;
    const old = wanted.filter((n) => n < recent);
    await times.read(...wanted.filter((n) => n >= recent));
    let i = 0;
    while (i < old.length) {
      // A day's bucket: from its first old block (read) to the day's last block before `recent`.
      const first = old[i]!;
      const day = Math.floor((await times.read(first)) / DAY_SECONDS) * DAY_SECONDS;
      const next = await findFirstBlockAt(times, day + DAY_SECONDS, first, recent);
      const last = (next ?? recent) - 1;
      await times.read(last);
      const anchors = times.entries().filter(([n]) => n >= first && n <= last);
      for (; i < old.length && old[i]! <= last; i++) interpolated.set(old[i]!, between(anchors, old[i]!));
    }
  }
  return {
    timeOf(block) {
      const s = exact.get(block) ?? interpolated.get(block) ?? times.get(block);
      if (s === undefined) throw new Error(`block ${block}: no time was read for it`);
      return new Date(s * 1000);
    },
    headersRead: times.headersRead,
  };
}

/** The time of `n` by linear interpolation between the nearest anchors (block, seconds) around it, ascending. */
function between(anchors: readonly (readonly [number, number])[], n: number): number {
  let lo = 0;
  while (lo + 1 < anchors.length && anchors[lo + 1]![0] <= n) lo++;
  const [b0, t0] = anchors[lo]!;
  if (b0 === n || lo + 1 >= anchors.length) return t0;
  const [b1, t1] = anchors[lo + 1]!;
  return t0 + Math.floor(((t1 - t0) * (n - b0)) / (b1 - b0));
}
