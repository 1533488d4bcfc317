// One batch [from, to]: read logs, discover pools and tokens, replay pool events block by block,
// reprice what moved, and write all of it with the checkpoint in one transaction. Each step is a
// function of its own: discoverPools, fetchHeaders, readDiscoveredState, replayBlocks,
// refreshSupplies, writeBatch.
import { readErc20Metadata, type BlockHeader } from '../chain/index.ts';
import type { IndexerToken } from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { discoverPools } from './discoverPools.ts';
import { ReorgDetectedError } from './errors.ts';
import { ALL_TOPICS } from './families/events.ts';
import { familyOf } from './families/index.ts';
import { fetchHeaders } from './fetchHeaders.ts';
import { readPoolStates, readStableFlags } from './readDiscoveredState.ts';
import { refreshSupplies } from './refreshSupplies.ts';
import { replayBlocks } from './replayBlocks.ts';
import { addPool, type IndexerState } from './state/IndexerState.ts';
import { tokenFromChain } from './tokenFromChain.ts';
import { planFeed } from './usdFeed.ts';
import { writeBatch } from './writeBatch.ts';
import { createLaps } from './createLaps.ts';

export type BatchResult = {
  fromBlock: number;
  toBlock: number;
  toHash: string;
  toTime: Date;
  logs: number;
  /** Swap events indexed. */
  swapEvents: number;
  /** Stored swap rows (one per token of the pool). */
  swaps: number;
  newPools: number;
  newTokens: number;
  priceChanges: number;
  /** Headers read to give history rows ahead of the moving window edges their own times (exactEdgeTimes.ts), read ahead included. */
  edgeHeaders: number;
  /** Token rows rewritten (those whose figures may have moved; every priced token's when computed from scratch). */
  tokensWritten: number;
  /** The batch committed without its candles: they are to be rolled up now (writeBatch). */
  candlesPending: boolean;
  /** Wall time of the step's parts in ms (reads: logs, headers, states; replay; supplies; the write's own parts). */
  ms: Record<string, number>;
};

/** `atHead`: the batch reaches the block the step aims at (following, not backfilling): see writeBatch's candles. */
export async function indexBatch(ctx: IndexerContext, state: IndexerState, from: number, to: number, parentHash: string | null, atHead = false): Promise<BatchResult> {
  const ms: Record<string, number> = {};
  const lap = createLaps(ms);
  const logs = (await ctx.chain.getLogs({ fromBlock: from, toBlock: to, topics: [ALL_TOPICS] }))
    .filter((l) => !l.removed)
    .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);

  const { newPools, tokenFirstSeen, creations } = discoverPools(ctx, state, logs, from);
  const poolAddresses = new Set([...state.pools.keys(), ...newPools.map((p) => p.address)]);
  // The feed's answers in the batch (usdFeed.ts); the aggregator at the head's last block is at hand.
  const known = ctx.usdFeed?.phaseAt;
  const { rounds: feedRounds, isFeedLog, phaseAtEnd } = await planFeed(ctx, state, from, to, known?.block === from - 1 ? known.phase : undefined);
  if (ctx.usdFeed) ctx.usdFeed.phaseAt = { block: to, phase: phaseAtEnd };
  const relevant = logs.filter((l) => poolAddresses.has(ctx.poolOf(l)) || creations.has(l) || isFeedLog(l));
  lap('logs');

  // Headers of every block that matters; the batch must continue the indexed chain.
  const blockNumbers = new Set<number>([from, to, ...relevant.map((l) => l.blockNumber), ...tokenFirstSeen.values(), ...feedRounds.keys()]);
  const headers = await fetchHeaders(ctx.chain, blockNumbers);
  const header = (n: number) => headers.get(n) as BlockHeader;
  if (parentHash !== null && header(from).parentHash !== parentHash) throw new ReorgDetectedError(from - 1);
  for (const log of relevant) if (log.blockHash !== header(log.blockNumber).hash) throw new ReorgDetectedError(log.blockNumber);
  const timeOf = (n: number) => new Date(header(n).timestamp * 1000);
  for (const pool of newPools) pool.createdAt = timeOf(pool.createdBlock);
  lap('headers');

  // Metadata of new tokens at the batch end; stable flags of new pools; concentrated pools' state after mints and burns.
  const newTokens = await readNewTokens(ctx, state, tokenFirstSeen, to, timeOf);
  await readStableFlags(ctx, newPools, to);
  for (const pool of newPools) addPool(state, pool);
  const stateReads = new Map<string, { pool: (typeof newPools)[number]; block: number }>();
  for (const log of relevant) {
    const pool = state.pools.get(ctx.poolOf(log));
    if (!pool || pool.createdBlock > log.blockNumber || !familyOf(pool.kind).stateReadTopics?.includes(log.topics[0] ?? '')) continue;
    stateReads.set(`${log.blockNumber}:${pool.address}`, { pool, block: log.blockNumber });
  }
  const readStates = await readPoolStates(ctx, [...stateReads.values()]);
  lap('states');

  const replay = await replayBlocks(ctx, state, { logs: relevant, isFeedLog, tokenFirstSeen, feedRounds, readStates, timeOf });
  lap('replay');
  // The supply reads go on while the write step reads the window edges' times (both wait on the node); the write awaits them.
  const changedTokens = refreshSupplies(ctx, state, { from, to, toTime: timeOf(to) }, newTokens, replay.traded);
  changedTokens.catch(() => {}); // awaited (and so thrown) by writeBatch; not an unhandled rejection meanwhile
  const { edgeHeaders, tokensWritten, candlesPending } = await writeBatch(ctx, state, { from, to, parentBlock: parentHash === null ? null : from - 1, headers, newPools, changedTokens, replay, atHead }, lap);

  return {
    fromBlock: from, toBlock: to, toHash: header(to).hash, toTime: timeOf(to), logs: relevant.length,
    swapEvents: new Set(replay.swaps.map((s) => `${s.blockNumber}:${s.logIndex}`)).size, swaps: replay.swaps.length,
    newPools: newPools.length, newTokens: newTokens.length, priceChanges: replay.priceChanges.length, edgeHeaders, tokensWritten, candlesPending, ms,
  };
}

/** The batch's new tokens, their metadata read at its end block, taken into the state. */
async function readNewTokens(ctx: IndexerContext, state: IndexerState, firstSeen: ReadonlyMap<string, number>, to: number, timeOf: (n: number) => Date): Promise<IndexerToken[]> {
  const addresses = [...firstSeen.keys()];
  const metadata = await readErc20Metadata(ctx.chain, addresses, to, ctx.config.multicall3);
  const tokens = addresses.map((address, i) =>
    tokenFromChain(address, metadata[i], ctx.tokenList.get(address), { block: firstSeen.get(address)!, at: timeOf(firstSeen.get(address)!), supplyBlock: to }),
  );
  for (const token of tokens) state.tokens.set(token.address, token);
  return tokens;
}
