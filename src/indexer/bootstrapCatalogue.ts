// Head-first bootstrap (docs/indexer.md, "After npm run index"): from an empty database, the current
// catalogue at one head block H = head − confirmations, without replaying history. Every configured
// factory's pools are discovered from the start block with eth_getLogs filtered by the factories'
// addresses; concentrated positions come from the pools' own position events; every pool's state,
// every token's metadata and supply are read at H through Multicall3; prices, price sources,
// liquidity, FDV and the flags are computed at H and stored with the checkpoint at H. The prices
// are stored as carried (the price in force at H, not a change seen there); history is then filled
// newest first by fillHistory, from block H down.
import { readErc20Metadata, readUsdFeed, type FeedPhase } from '../chain/index.ts';
import { rollupCandles } from '../db/index.ts';
import {
  saveBlocks, saveFeedAnswers, saveIndexerTokens, savePools, savePoolStates, savePositionChanges, savePriceChanges, writeCheckpoint,
  type FeedAnswerWrite, type PriceChange,
} from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { blockTimes } from './blockTimes.ts';
import { creationBlockTimes } from './creationTimes.ts';
import { discoverPools } from './discoverPools.ts';
import { ReorgDetectedError } from './errors.ts';
import { emptyState } from './families/index.ts';
import type { FillCarry } from './FillCarry.ts';
import { readPoolStatesAt, readPositionChanges } from './readHeadState.ts';
import { readStableFlags } from './readDiscoveredState.ts';
import { refreshSupplies } from './refreshSupplies.ts';
import { addLiquidityNet, repriceBlock } from './replayBlocks.ts';
import { addPool, loadIndexerState, type IndexerState } from './state/IndexerState.ts';
import { tokenFromChain } from './tokenFromChain.ts';
import { applyFeedRound } from './usdFeed.ts';
import { writeCatalogue } from './writeCatalogue.ts';

export type BootstrapResult = {
  block: number;
  pools: number;
  tokens: number;
  positions: number;
  pricedTokens: number;
  /** Headers read for block times (creation blocks whose logs carry no blockTimestamp, and H). */
  headersRead: number;
};

/**
 * The catalogue's summary, and every pool's state read at H: the state the first history range,
 * which ends at H, starts from for each pool without events in it (fillHistory's carry).
 */
export async function bootstrapCatalogue(ctx: IndexerContext, head: number): Promise<{ result: BootstrapResult; carry: FillCarry }> {
  const { chain, config } = ctx;
  const from = config.startBlock;
  const headHeader = await chain.getBlockHeader(head);
  if (!headHeader) throw new ReorgDetectedError(head);

  // Discovery: the factories' creation events only, by the factories' addresses.
  const creationTopics = [...new Set([...ctx.factories.values()].map((f) => f.family.creationTopic))];
  const creationLogs = ctx.factories.size === 0 ? [] : (await chain.getLogs({ fromBlock: from, toBlock: head, address: [...ctx.factories.keys()], topics: [creationTopics] }))
    .filter((l) => !l.removed)
    .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  const state = await loadIndexerState(ctx.db);
  const { newPools, tokenFirstSeen } = discoverPools(ctx, state, creationLogs, from);
  for (const pool of newPools) addPool(state, pool);

  // Positions from their events, then every pool's state at H by call.
  const positions = await readPositionChanges(ctx, state.pools, from, head);
  for (const p of positions) {
    const net = state.pools.get(p.pool)!.liquidityNet;
    addLiquidityNet(net, p.tickLower, p.liquidity);
    addLiquidityNet(net, p.tickUpper, -p.liquidity);
  }
  const states = await readPoolStatesAt(ctx, newPools, head);
  for (const pool of newPools) pool.state = states.get(pool.address) ?? emptyState();
  await readStableFlags(ctx, newPools, head);

  // Times of the creation and first-seen blocks: from the logs' blockTimestamp where present, else
  // exact within 31 days of H and inside their true UTC day before (creationTimes.ts), or every
  // one exact (INDEXER_HISTORY_BLOCK_TIMES=exact).
  const created = [...newPools.map((p) => p.createdBlock), ...tokenFirstSeen.values()].filter((n) => n !== head);
  const times = config.historyBlockTimes === 'bucketed'
    ? await creationBlockTimes(chain, { logs: creationLogs, blocks: created, head: { block: head, time: new Date(headHeader.timestamp * 1000) }, floor: from })
    : await blockTimes(chain, creationLogs, created);
  const timeOf = (n: number) => (n === head ? new Date(headHeader.timestamp * 1000) : times.timeOf(n));
  for (const pool of newPools) pool.createdAt = timeOf(pool.createdBlock);
  const at = timeOf(head);

  const addresses = [...tokenFirstSeen.keys()];
  const metadata = await readErc20Metadata(chain, addresses, head, config.multicall3);
  const tokens = addresses.map((address, i) =>
    tokenFromChain(address, metadata[i], ctx.tokenList.get(address), { block: tokenFirstSeen.get(address)!, at: timeOf(tokenFirstSeen.get(address)!), supplyBlock: head }),
  );
  for (const token of tokens) state.tokens.set(token.address, token);

  const feed = await readFeedAt(ctx, state, head);
  const feedAnswers = feed.answers;
  if (ctx.usdFeed && feed.phase) ctx.usdFeed.phaseAt = { block: head, phase: feed.phase };
  // Every price at H, quote tokens first, as a batch reprices: carried, not changes seen at H.
  const carried: PriceChange[] = [];
  await repriceBlock(ctx, state, new Set(state.tokens.keys()), head, at, carried);
  for (const c of carried) c.carried = true;
  const changedTokens = await refreshSupplies(ctx, state, { from: head, to: head, toTime: at }, tokens, new Set());

  await ctx.db.transaction(async (tx) => {
    await ctx.fence(tx, null);
    await saveIndexerTokens(tx, changedTokens);
    await savePools(tx, newPools);
    await savePoolStates(tx, newPools.filter((p) => states.get(p.address)).map((p) => ({ pool: p.address, blockNumber: head, blockTime: null, provisional: true, ...p.state })));
    await savePositionChanges(tx, positions);
    await savePriceChanges(tx, carried);
    await saveFeedAnswers(tx, feedAnswers);
    // Candles start from the carried prices (block 0: a carried price is no block's record).
    await rollupCandles(tx, carried.map((c) => ({ ...c, blockNumber: 0 })), []);
    await writeCatalogue(tx, ctx, state, at);
    await saveBlocks(tx, [{ number: head, hash: headHeader.hash, time: at }], config.reorgDepth);
    await writeCheckpoint(tx, {
      chainId: ctx.chainId, blockNumber: head, blockHash: headHeader.hash, blockTime: at,
      history: { bootstrapBlock: head, fromBlock: head + 1, fromTime: at, complete: head + 1 <= from },
    });
  });
  const result: BootstrapResult = {
    block: head, pools: newPools.length, tokens: tokens.length, positions: positions.length,
    pricedTokens: carried.filter((c) => c.price !== null).length, headersRead: times.headersRead + 1,
  };
  return { result, carry: { fromBlock: head + 1, states } };
}

/** The USD feed's round at `block`, taken into the state; and the proxy's aggregator and phase there. */
export async function readFeedAt(ctx: IndexerContext, state: IndexerState, block: number): Promise<{ answers: FeedAnswerWrite[]; phase?: FeedPhase }> {
  const feed = ctx.usdFeed;
  const answers: FeedAnswerWrite[] = [];
  if (!feed) return { answers };
  const reading = await readUsdFeed(ctx.chain, feed.address, block, ctx.config.multicall3);
  if (reading.decimals !== null) feed.decimals = reading.decimals;
  if (reading.round) applyFeedRound(ctx, state, reading.round, block, -1, answers);
  return { answers, phase: { aggregator: reading.aggregator, phase: reading.phase } };
}
