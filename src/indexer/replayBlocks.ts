// A batch's replay step: pool events block by block, each read by its pool's family, the prices
// they move (quote tokens first), and the swaps valued at their token's price at the end of their
// block.
import type { FeedRound, RawLog } from '../chain/index.ts';
import type { SwapWrite } from '../db/index.ts';
import type { FeedAnswerWrite, PoolStateWrite, PositionChange, PriceChange, StoredPool } from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { decodeAnswerUpdated } from './families/events.ts';
import { familyOf } from './families/index.ts';
import { formatFixed } from './math/fixed.ts';
import { valueOf } from './pricing/poolFigures.ts';
import { priceQuoteTokens, priceWithSource, type PricedBy } from './pricing/priceToken.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { applyFeedRound } from './usdFeed.ts';
import { yieldEvery } from './yieldEvery.ts';

export type ReplayInput = {
  /** The batch's pool and feed logs, in chain order. */
  logs: readonly RawLog[];
  isFeedLog(log: RawLog): boolean;
  /** Tokens first seen in the batch, by block (their first price is looked for there). */
  tokenFirstSeen: ReadonlyMap<string, number>;
  /** Feed rounds read by call, by block. */
  feedRounds: ReadonlyMap<number, FeedRound>;
  /** Pool states read by call after mints and burns, keyed `block:pool`. */
  readStates: ReadonlyMap<string, { sqrtPriceX96: bigint; liquidity: bigint }>;
  timeOf(block: number): Date;
};

export type Replay = {
  swaps: SwapWrite[];
  poolStates: PoolStateWrite[];
  positions: PositionChange[];
  priceChanges: PriceChange[];
  feedAnswers: FeedAnswerWrite[];
  /** Tokens that traded in the batch. */
  traded: Set<string>;
  /** Pools whose state changed in the batch. */
  changedPools: Set<string>;
};

const VALUE_DIGITS = 18;

/** Yields the event loop between blocks once it has run YIELD_AFTER_MS (yieldEvery.ts). */
export async function replayBlocks(ctx: IndexerContext, state: IndexerState, input: ReplayInput): Promise<Replay> {
  const pause = yieldEvery();
  const out: Replay = { swaps: [], poolStates: [], positions: [], priceChanges: [], feedAnswers: [], traded: new Set(), changedPools: new Set() };
  const byBlock = new Map<number, RawLog[]>();
  for (const log of input.logs) byBlock.set(log.blockNumber, [...(byBlock.get(log.blockNumber) ?? []), log]);
  const firstSeenByBlock = new Map<number, string[]>();
  for (const [t, b] of input.tokenFirstSeen) firstSeenByBlock.set(b, [...(firstSeenByBlock.get(b) ?? []), t]);
  const blocks = [...new Set([...byBlock.keys(), ...firstSeenByBlock.keys(), ...input.feedRounds.keys()])].sort((a, b) => a - b);

  for (const block of blocks) {
    const paused = pause();
    if (paused) await paused;
    const changedPools = new Set<string>();
    const blockSwapsFrom = out.swaps.length;
    let feedMoved = false;
    const round = input.feedRounds.get(block);
    if (round) feedMoved = applyFeedRound(ctx, state, round, block, -1, out.feedAnswers) || feedMoved;
    for (const log of byBlock.get(block) ?? []) {
      if (input.isFeedLog(log)) {
        feedMoved = applyFeedRound(ctx, state, decodeAnswerUpdated(log), block, log.logIndex, out.feedAnswers) || feedMoved;
        continue;
      }
      const pool = state.pools.get(ctx.poolOf(log));
      if (!pool || pool.createdBlock > block) continue;
      applyPoolLog(pool, log, input, changedPools, out);
    }
    for (const address of changedPools) {
      const pool = state.pools.get(address)!;
      pool.lastEventAt = input.timeOf(block);
      out.poolStates.push({ pool: address, blockNumber: block, blockTime: pool.lastEventAt, ...pool.state });
    }
    const dirty = new Set<string>(firstSeenByBlock.get(block) ?? []);
    if (feedMoved) for (const quote of ctx.pricing.quotes) dirty.add(quote);
    for (const address of changedPools) {
      const pool = state.pools.get(address)!;
      // The quote tokens are priced from the pools between two of them (and the feed) alone: a
      // pool against one quote token moves only its other token's price.
      const quote0 = ctx.pricing.quoteRank.has(pool.token0);
      const quote1 = ctx.pricing.quoteRank.has(pool.token1);
      if (!quote0 || quote1) dirty.add(pool.token0);
      if (!quote1 || quote0) dirty.add(pool.token1);
    }
    await repriceBlock(ctx, state, dirty, block, input.timeOf(block), out.priceChanges, pause);
    for (const address of changedPools) out.changedPools.add(address);
    // A swap is valued at its token's price at the end of its block.
    for (let i = blockSwapsFrom; i < out.swaps.length; i++) {
      const swap = out.swaps[i]!;
      const price = state.prices.get(swap.token)?.price ?? null;
      const meta = state.tokens.get(swap.token);
      if (price !== null && meta) swap.valueUsd = formatFixed(valueOf(swap.amount, price, meta.decimals), VALUE_DIGITS);
    }
  }
  return out;
}

/** One pool log, read only by the pool's own family (topics are shared between families). */
function applyPoolLog(pool: StoredPool, log: RawLog, input: ReplayInput, changed: Set<string>, out: Replay) {
  const block = log.blockNumber;
  const effect = familyOf(pool.kind).applyLog(pool, log);
  if (effect?.state) {
    pool.state = effect.state;
    changed.add(pool.address);
  }
  if (effect?.swap) pushSwaps(out, log, pool, effect.swap.net0, effect.swap.net1, input.timeOf(block));
  if (effect?.position) {
    const { tickLower, tickUpper, liquidity } = effect.position;
    addLiquidityNet(pool.liquidityNet, tickLower, liquidity);
    addLiquidityNet(pool.liquidityNet, tickUpper, -liquidity);
    pool.state = { ...pool.state }; // a new state object: the figures remembered for the old positions are dropped (poolQuotes.ts)
    out.positions.push({ pool: pool.address, blockNumber: block, logIndex: log.logIndex, tickLower, tickUpper, liquidity });
    changed.add(pool.address);
  }
  const read = input.readStates.get(`${block}:${pool.address}`);
  if (read) {
    pool.state = { ...pool.state, ...read };
    changed.add(pool.address);
  }
}

export function addLiquidityNet(net: Map<number, bigint>, tick: number, delta: bigint) {
  const value = (net.get(tick) ?? 0n) + delta;
  if (value === 0n) net.delete(tick);
  else net.set(tick, value);
}

// Taking a token out of the pool is a buy of it, putting it in a sell; one row per token.
function pushSwaps(out: Replay, log: RawLog, pool: StoredPool, net0: bigint, net1: bigint, at: Date) {
  for (const [token, net] of [[pool.token0, net0], [pool.token1, net1]] as const) {
    out.traded.add(token);
    if (net === 0n) continue;
    out.swaps.push({
      blockNumber: log.blockNumber, logIndex: log.logIndex, token, side: net > 0n ? 'sell' : 'buy',
      txHash: log.transactionHash, pool: pool.address, occurredAt: at, amount: net < 0n ? -net : net, valueUsd: null,
    });
  }
}

// Quote tokens first, all at once (they depend on each other through the anchor): when one moves,
// every token sharing a pool with it is repriced too. Then the other tokens (yielding through `pause`
// between them: every token of the chain is repriced at a bootstrap and before each history range).
export async function repriceBlock(
  ctx: IndexerContext, state: IndexerState, dirty: Set<string>, block: number, at: Date, out: PriceChange[], pause = yieldEvery(),
): Promise<void> {
  const { quotes, quoteRank } = ctx.pricing;
  if (quotes.some((q) => dirty.has(q))) {
    const priced = priceQuoteTokens(state, ctx.pricing);
    for (const quote of quotes) {
      // A quote token not seen by this block (no pool of it yet) is not priced: it is once its first
      // pool is, whichever batch or history range holds that block.
      if (!((state.tokens.get(quote)?.firstSeenBlock ?? Infinity) <= block)) continue;
      if (!setPrice(state, quote, priced.get(quote) ?? { price: null, source: null }, block, at, out)) continue;
      for (const address of state.poolsByToken.get(quote) ?? []) {
        const pool = state.pools.get(address)!;
        dirty.add(pool.token0).add(pool.token1);
      }
    }
  }
  for (const token of [...dirty].sort()) {
    if (quoteRank.has(token)) continue;
    const paused = pause();
    if (paused) await paused;
    setPrice(state, token, priceWithSource(state, token, ctx.pricing), block, at, out);
  }
}

function setPrice(state: IndexerState, token: string, { price, source }: PricedBy, block: number, at: Date, out: PriceChange[]): boolean {
  const previous = state.prices.get(token);
  const moved = price !== (previous?.price ?? null);
  if (!moved && source === (previous?.source ?? null)) return false;
  state.prices.set(token, { price, blockNumber: block, observedAt: at, valueSince: moved || !previous ? at : previous.valueSince, source });
  out.push({ token, blockNumber: block, price: price === null ? null : formatFixed(price), observedAt: at, source });
  return moved; // (a new source at the same price moves nothing quoted against the token)
}
