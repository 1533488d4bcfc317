// The configured USD feed in a batch: the rounds read by call (the first answer, an aggregator
// switch) and the answers taken into the state, AnswerUpdated logs included.
import { readUsdFeed, type FeedRound } from '../chain/index.ts';
import type { FeedAnswerWrite } from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import type { IndexerState } from './state/IndexerState.ts';

/**
 * The feed rounds read by call rather than from AnswerUpdated logs, by block: the first answer
 * (at the batch's first block) while none is known, and the latest answer at the batch's end when
 * the proxy points at an aggregator not seen before (its earlier logs in this batch were not
 * followed). The aggregator read at the batch end is followed from this batch on.
 */
export async function feedRoundsToRead(ctx: IndexerContext, state: IndexerState, from: number, to: number): Promise<Map<number, FeedRound>> {
  const rounds = new Map<number, FeedRound>();
  const feed = ctx.usdFeed;
  if (!feed) return rounds;
  const atEnd = await readUsdFeed(ctx.chain, feed.address, to, ctx.config.multicall3);
  if (atEnd.decimals !== null) feed.decimals = atEnd.decimals;
  const switched = feed.aggregators.size > 0 && !feed.aggregators.has(atEnd.aggregator);
  feed.aggregators.add(atEnd.aggregator);
  if (state.feed === null) {
    const atStart = from === to ? atEnd : await readUsdFeed(ctx.chain, feed.address, from, ctx.config.multicall3);
    if (atStart.round) rounds.set(from, atStart.round);
  }
  if (switched && atEnd.round) rounds.set(to, atEnd.round);
  return rounds;
}

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
