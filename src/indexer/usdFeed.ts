// The configured USD feed in a batch or a history range: which AnswerUpdated logs count (those of
// the aggregator the proxy points at in their block), the rounds read by call (the first answer, the
// answer in force when the proxy moves to another aggregator) and the answers taken into the state.
import { readAggregatorRound, readFeedPhase, readUsdFeed, type FeedPhase, type FeedRound, type RawLog } from '../chain/index.ts';
import type { FeedAnswerWrite } from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { TOPICS } from './families/events.ts';
import type { IndexerState } from './state/IndexerState.ts';

/** The feed over blocks `from`..`to`: the rounds to take at the start of their block, and which logs are its answers. */
export type FeedPlan = {
  rounds: Map<number, FeedRound>;
  isFeedLog(log: RawLog): boolean;
  /** The proxy's aggregator and phase at `to`. */
  phaseAtEnd: FeedPhase;
};

/** The aggregator the proxy points at from `block` on (a change of aggregator: a Chainlink phase change). */
type Switch = { block: number; aggregator: string };

const noFeed: FeedPlan = { rounds: new Map(), isFeedLog: () => false, phaseAtEnd: { aggregator: '', phase: null } };

/**
 * The feed over `from`..`to`. A log counts when its emitter is the aggregator the proxy points at
 * at the end of the log's block, so a block in which the proxy moves belongs wholly to the new
 * aggregator: answers the old one still posts from then on, and those the new one posted before,
 * are not the feed's. The aggregator and the proxy's `phaseId()` (it counts the changes, so a
 * return to an earlier aggregator shows too) are read at `from − 1` (unless `before` gives them)
 * and at `to`; where they differ, bisection by calls finds each block where they changed (about
 * log2 of the span per change). A proxy without `phaseId()` is followed by its aggregator alone:
 * there, a change and its reversal inside one bisected span are not seen.
 * At such a block the new aggregator's latest answer before it becomes the feed's. While no answer
 * is known the answer at `from` is read. Every reader (forward batch, history range) follows the
 * same rule, so the answers do not depend on where batches or ranges start and end.
 */
export async function planFeed(ctx: IndexerContext, state: IndexerState, from: number, to: number, before?: FeedPhase): Promise<FeedPlan> {
  const feed = ctx.usdFeed;
  if (!feed) return noFeed;
  const { chain, config } = ctx;
  const atEnd = await readUsdFeed(chain, feed.address, to, config.multicall3);
  if (atEnd.decimals !== null) feed.decimals = atEnd.decimals;
  const phaseBefore = before ?? (await readFeedPhase(chain, feed.address, Math.max(0, from - 1), config.multicall3));
  const switches = await findSwitches(ctx, from - 1, phaseBefore, to, atEnd);
  const rounds = new Map<number, FeedRound>();
  if (state.feed === null) {
    const atStart = from === to ? atEnd : await readUsdFeed(chain, feed.address, from, config.multicall3);
    if (atStart.round) rounds.set(from, atStart.round);
  }
  for (const s of switches) {
    // The new aggregator's own latest answer before the block (none yet: the old answer stands until its first).
    const latest = await readAggregatorRound(chain, s.aggregator, s.block - 1);
    if (latest) rounds.set(s.block, latest);
  }
  const aggregatorAt = (block: number) => {
    let aggregator = phaseBefore.aggregator;
    for (const s of switches) if (s.block <= block) aggregator = s.aggregator;
    return aggregator;
  };
  return {
    rounds,
    isFeedLog: (l) => l.topics[0] === TOPICS.answerUpdated && l.address === aggregatorAt(l.blockNumber),
    phaseAtEnd: { aggregator: atEnd.aggregator, phase: atEnd.phase },
  };
}

/** The blocks in (`low`, `high`] where the proxy's aggregator changed, in order, given it at both ends. */
async function findSwitches(ctx: IndexerContext, low: number, atLow: FeedPhase, high: number, atHigh: FeedPhase): Promise<Switch[]> {
  if (samePhase(atLow, atHigh) || high <= low) return [];
  if (high === low + 1) return atLow.aggregator === atHigh.aggregator ? [] : [{ block: high, aggregator: atHigh.aggregator }];
  const mid = Math.floor((low + high) / 2);
  const atMid = await readFeedPhase(ctx.chain, ctx.usdFeed!.address, mid, ctx.config.multicall3);
  return [...(await findSwitches(ctx, low, atLow, mid, atMid)), ...(await findSwitches(ctx, mid, atMid, high, atHigh))];
}

const samePhase = (x: FeedPhase, y: FeedPhase) => x.aggregator === y.aggregator && (x.phase === null || y.phase === null || x.phase === y.phase);

/** Takes a feed answer into the state; true when the USD price it gives changed. */
export function applyFeedRound(ctx: IndexerContext, state: IndexerState, round: FeedRound, block: number, logIndex: number, out: FeedAnswerWrite[]): boolean {
  const feed = ctx.usdFeed;
  if (!feed || feed.decimals === null || round.answer <= 0n) return false;
  const price = round.answer * 10n ** BigInt(36 - feed.decimals);
  const updatedAt = new Date(round.updatedAt * 1000);
  const moved = state.feed?.price !== price;
  state.feed = { price, updatedAt, blockNumber: block };
  out.push({ feed: feed.address, blockNumber: block, logIndex, answer: round.answer, decimals: feed.decimals, updatedAt });
  return moved;
}
