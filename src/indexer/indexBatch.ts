// One batch [from, to]: read logs, discover pools and tokens, replay pool events block by block,
// reprice what moved, and write all of it with the checkpoint in one transaction.
import { callMany, readErc20Metadata, readTotalSupplies, readUsdFeed, type BlockHeader, type FeedRound, type RawLog } from '../chain/index.ts';
import { appendPricePoints, applyRetention, recordSwaps, refreshSwapCounts, rollupCandles, upsertPools, upsertTokens, type SwapWrite } from '../db/index.ts';
import { retentionDefaults } from '../config/retentionConfig.ts';
import {
  prunePoolStates, saveBlocks, saveFeedAnswers, saveIndexerTokens, savePoolStates, savePools, savePriceChanges, writeCheckpoint,
  type FeedAnswerWrite,
  savePositionChanges, type IndexerToken, type PoolStateWrite, type PositionChange, type PriceChange, type StoredPool,
} from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { addPool, type IndexerState } from './IndexerState.ts';
import { buildPoolWrites } from './buildPoolWrites.ts';
import { buildTokenWrites } from './buildTokenWrites.ts';
import { ReorgDetectedError } from './errors.ts';
import { ALL_TOPICS, TOPICS, decodeAnswerUpdated } from './events.ts';
import { emptyState, familyOf } from './families/index.ts';
import { fetchHeaders } from './fetchHeaders.ts';
import { formatFixed } from './fixed.ts';
import { createPoolFigures, valueOf } from './poolFigures.ts';
import { priceWithSource } from './priceToken.ts';
import { loadWindowPrices } from './priceWindows.ts';
import { tokenFromChain } from './tokenFromChain.ts';
import { writeTokenTrust } from './trust/writeTokenTrust.ts';
import { refreshCirculating } from './circulating/refreshCirculating.ts';

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
};

const VALUE_DIGITS = 18;
const PRUNE_EVERY = 1000;

export async function indexBatch(
  ctx: IndexerContext,
  state: IndexerState,
  from: number,
  to: number,
  parentHash: string | null,
): Promise<BatchResult> {
  const { chain, config, db } = ctx;
  const logs = (await chain.getLogs({ fromBlock: from, toBlock: to, topics: [ALL_TOPICS] }))
    .filter((l) => !l.removed)
    .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);

  // 1. Discovery: pools of the configured factories (each read by its family), their tokens, and token-list entries.
  const newPools: StoredPool[] = [];
  const tokenFirstSeen = new Map<string, number>();
  const knownPool = (address: string) => state.pools.has(address) || newPools.some((p) => p.address === address);
  const creations: RawLog[] = [];
  for (const log of logs) {
    const factory = ctx.factories.get(log.address);
    if (!factory || log.topics[0] !== factory.family.creationTopic) continue;
    creations.push(log);
    const found = factory.family.decodeCreation(log);
    if (knownPool(found.pool)) continue;
    newPools.push({
      address: found.pool, kind: factory.family.kind, factory: log.address,
      token0: found.token0, token1: found.token1, fee: found.fee, stable: factory.stable ?? found.stable, createdBlock: log.blockNumber,
      createdAt: null, lastEventAt: null, state: emptyState(), liquidityNet: new Map(),
    });
    for (const t of [found.token0, found.token1]) {
      if (!state.tokens.has(t) && !tokenFirstSeen.has(t)) tokenFirstSeen.set(t, log.blockNumber);
    }
  }
  for (const address of ctx.tokenList.keys()) {
    if (!state.tokens.has(address) && !tokenFirstSeen.has(address)) tokenFirstSeen.set(address, from);
  }
  const poolAddresses = new Set([...state.pools.keys(), ...newPools.map((p) => p.address)]);
  const creationSet = new Set(creations);
  const feedRounds = await feedRoundsToRead(ctx, state, from, to);
  const isFeedLog = (l: RawLog) => l.topics[0] === TOPICS.answerUpdated && (ctx.usdFeed?.aggregators.has(l.address) ?? false);
  const relevant = logs.filter((l) => poolAddresses.has(l.address) || creationSet.has(l) || isFeedLog(l));

  // 2. Headers of every block that matters; the batch must continue the indexed chain.
  const blockNumbers = new Set<number>([from, to, ...relevant.map((l) => l.blockNumber), ...tokenFirstSeen.values(), ...feedRounds.keys()]);
  const headers = await fetchHeaders(chain, blockNumbers);
  const header = (n: number) => headers.get(n) as BlockHeader;
  if (parentHash !== null && header(from).parentHash !== parentHash) throw new ReorgDetectedError(from - 1);
  for (const log of relevant) if (log.blockHash !== header(log.blockNumber).hash) throw new ReorgDetectedError(log.blockNumber);
  const timeOf = (n: number) => new Date(header(n).timestamp * 1000);
  for (const pool of newPools) pool.createdAt = timeOf(pool.createdBlock);

  // 3. Reads: metadata of new tokens at the batch end; concentrated pools' state after mints/burns.
  const newTokenAddresses = [...tokenFirstSeen.keys()];
  const metadata = await readErc20Metadata(chain, newTokenAddresses, to, config.multicall3);
  const newTokens: IndexerToken[] = newTokenAddresses.map((address, i) =>
    tokenFromChain(address, metadata[i], ctx.tokenList.get(address), {
      block: tokenFirstSeen.get(address)!, at: timeOf(tokenFirstSeen.get(address)!), supplyBlock: to,
    }),
  );
  for (const token of newTokens) state.tokens.set(token.address, token);
  await readStableFlags(ctx, newPools, to);
  for (const pool of newPools) addPool(state, pool);

  const stateReads = new Map<string, { pool: StoredPool; block: number }>();
  for (const log of relevant) {
    const pool = state.pools.get(log.address);
    if (!pool || pool.createdBlock > log.blockNumber || !familyOf(pool.kind).stateReadTopics?.includes(log.topics[0] ?? '')) continue;
    stateReads.set(`${log.blockNumber}:${log.address}`, { pool, block: log.blockNumber });
  }
  const readStates = await readPoolStates(ctx, [...stateReads.values()]);

  // 4. Replay block by block: pool state, swaps, and the prices they move.
  const swaps: SwapWrite[] = [];
  const poolStates: PoolStateWrite[] = [];
  const positions: PositionChange[] = [];
  const priceChanges: PriceChange[] = [];
  const traded = new Set<string>();
  const touchedPools = new Set<string>(newPools.map((p) => p.address));
  const byBlock = new Map<number, RawLog[]>();
  for (const log of relevant) byBlock.set(log.blockNumber, [...(byBlock.get(log.blockNumber) ?? []), log]);
  const firstSeenByBlock = new Map<number, string[]>();
  for (const [t, b] of tokenFirstSeen) firstSeenByBlock.set(b, [...(firstSeenByBlock.get(b) ?? []), t]);
  const blocks = [...new Set([...byBlock.keys(), ...firstSeenByBlock.keys(), ...feedRounds.keys()])].sort((a, b) => a - b);
  const feedAnswers: FeedAnswerWrite[] = [];

  for (const block of blocks) {
    const changedPools = new Set<string>();
    const blockSwapsFrom = swaps.length;
    let feedMoved = false;
    const round = feedRounds.get(block);
    if (round) feedMoved = applyFeedRound(ctx, state, round, block, -1, feedAnswers) || feedMoved;
    for (const log of byBlock.get(block) ?? []) {
      if (isFeedLog(log)) {
        feedMoved = applyFeedRound(ctx, state, decodeAnswerUpdated(log), block, log.logIndex, feedAnswers) || feedMoved;
        continue;
      }
      const pool = state.pools.get(log.address);
      if (!pool || pool.createdBlock > block) continue;
      // A pool log is read only by its own family: topics are shared between families.
      const effect = familyOf(pool.kind).applyLog(pool, log);
      if (effect?.state) {
        pool.state = effect.state;
        changedPools.add(pool.address);
      }
      if (effect?.swap) pushSwaps(swaps, traded, log, pool, effect.swap.net0, effect.swap.net1, timeOf(block));
      if (effect?.position) {
        const { tickLower, tickUpper, liquidity } = effect.position;
        addLiquidityNet(pool.liquidityNet, tickLower, liquidity);
        addLiquidityNet(pool.liquidityNet, tickUpper, -liquidity);
        positions.push({ pool: pool.address, blockNumber: block, logIndex: log.logIndex, tickLower, tickUpper, liquidity });
        changedPools.add(pool.address);
      }
      const read = readStates.get(`${block}:${log.address}`);
      if (read) {
        pool.state = { ...pool.state, ...read };
        changedPools.add(pool.address);
      }
    }
    for (const address of changedPools) {
      const pool = state.pools.get(address)!;
      pool.lastEventAt = timeOf(block);
      poolStates.push({ pool: address, blockNumber: block, blockTime: pool.lastEventAt, ...pool.state });
    }
    const dirty = new Set<string>(firstSeenByBlock.get(block) ?? []);
    if (feedMoved && ctx.pricing.anchor) dirty.add(ctx.pricing.anchor.token);
    for (const address of changedPools) {
      const pool = state.pools.get(address)!;
      dirty.add(pool.token0).add(pool.token1);
    }
    repriceBlock(ctx, state, dirty, block, timeOf(block), priceChanges);
    for (const address of changedPools) touchedPools.add(address);
    // A swap is valued at its token's price at the end of its block.
    for (let i = blockSwapsFrom; i < swaps.length; i++) {
      const swap = swaps[i]!;
      const price = state.prices.get(swap.token)?.price ?? null;
      const meta = state.tokens.get(swap.token);
      if (price !== null && meta) swap.valueUsd = formatFixed(valueOf(swap.amount, price, meta.decimals), VALUE_DIGITS);
    }
  }

  // 5. Supplies: tokens that traded, and all of them when the range crosses a refresh boundary.
  const refreshAll = Math.floor((from - 1) / config.supplyRefreshBlocks) !== Math.floor(to / config.supplyRefreshBlocks);
  const fresh = new Set(newTokenAddresses);
  const supplyTargets = [...(refreshAll ? state.tokens.keys() : traded)].filter((t) => !fresh.has(t));
  const supplies = await readTotalSupplies(chain, supplyTargets, to, config.multicall3);
  const changedTokens: IndexerToken[] = [...newTokens];
  supplyTargets.forEach((address, i) => {
    const token = state.tokens.get(address)!;
    const supply = supplies[i] ?? null;
    if (supply !== null && supply !== token.totalSupply) {
      token.totalSupply = supply;
      token.supplyBlock = to;
      changedTokens.push(token);
    }
  });

  // 5b. Circulating supplies at the batch end: tokens new or traded in it, then those due (refresh window, rollback), within a call budget.
  const listed = new Set(changedTokens);
  const touched = [...newTokenAddresses, ...traded];
  for (const token of await refreshCirculating(ctx, state, { from, to, toTime: timeOf(to) }, touched)) if (!listed.has(token)) changedTokens.push(token);

  // 6. One transaction: the batch's data and the checkpoint land together or not at all.
  const toTime = timeOf(to);
  const affected = new Set<string>([...changedTokens.map((t) => t.address), ...traded, ...priceChanges.map((c) => c.token)]);
  for (const [token, p] of state.prices) if (p.price !== null) affected.add(token);
  // Pool rows: new and changed pools, and every pool of a token whose price moved (its USD liquidity).
  for (const change of priceChanges) for (const address of state.poolsByToken.get(change.token) ?? []) touchedPools.add(address);
  for (const address of touchedPools) {
    const pool = state.pools.get(address)!;
    affected.add(pool.token0).add(pool.token1);
  }
  const figures = createPoolFigures(state);
  await db.transaction(async (tx) => {
    await ctx.fence(tx, parentHash === null ? null : from - 1);
    await saveIndexerTokens(tx, changedTokens);
    await savePools(tx, newPools);
    await savePoolStates(tx, poolStates);
    await savePositionChanges(tx, positions);
    await savePriceChanges(tx, priceChanges);
    await saveFeedAnswers(tx, feedAnswers);
    const tokens = [...affected].sort();
    const pricesAgo = await loadWindowPrices(tx, toTime, tokens);
    await upsertTokens(tx, buildTokenWrites(state, tokens, { pricesAgo, at: toTime, pricing: ctx.pricing, listedSymbols: ctx.listedSymbols, figures }));
    await upsertPools(tx, buildPoolWrites(state, [...touchedPools].sort(), figures));
    await appendPricePoints(
      tx,
      priceChanges.filter((c) => c.price !== null).map((c) => ({ token: c.token, price: c.price!, observedAt: c.observedAt, blockNumber: c.blockNumber })),
    );
    await recordSwaps(tx, swaps);
    // Candles from the same price changes and valued swaps, as the batch writes them.
    await rollupCandles(tx, priceChanges, swaps);
    await refreshSwapCounts(tx, toTime, state.swaps24h);
    await writeTokenTrust(tx, ctx, state, figures, toTime);
    const stored = [...headers.values()].map((h) => ({ number: h.number, hash: h.hash, time: new Date(h.timestamp * 1000) }));
    await saveBlocks(tx, stored, config.reorgDepth);
    // Pool-state history below the oldest stored hash can never be rolled back to: keep only the latest row.
    if (Math.floor((from - 1) / PRUNE_EVERY) !== Math.floor(to / PRUNE_EVERY)) {
      const oldest = await tx.query<{ n: string | null }>(`SELECT min(block_number)::text AS n FROM indexer_blocks`);
      if (oldest[0]?.n) await prunePoolStates(tx, Number(oldest[0].n));
    }
    // Swaps, price changes, hourly prices and candles behind their retention, in bounded statements;
    // here, not per batch, as each table's pruning costs a few statements even when nothing is due.
    const retention = config.retention ?? retentionDefaults;
    if (Math.floor((from - 1) / retention.everyBlocks) !== Math.floor(to / retention.everyBlocks)) await applyRetention(tx, retention, toTime);
    await writeCheckpoint(tx, { chainId: ctx.chainId, blockNumber: to, blockHash: header(to).hash, blockTime: toTime });
  });

  return {
    fromBlock: from, toBlock: to, toHash: header(to).hash, toTime, logs: relevant.length, swapEvents: new Set(swaps.map((s) => `${s.blockNumber}:${s.logIndex}`)).size, swaps: swaps.length,
    newPools: newPools.length, newTokens: newTokens.length, priceChanges: priceChanges.length,
  };
}

function addLiquidityNet(net: Map<number, bigint>, tick: number, delta: bigint) {
  const value = (net.get(tick) ?? 0n) + delta;
  if (value === 0n) net.delete(tick);
  else net.set(tick, value);
}

// Taking a token out of the pool is a buy of it, putting it in a sell; one row per token.
function pushSwaps(out: SwapWrite[], traded: Set<string>, log: RawLog, pool: StoredPool, net0: bigint, net1: bigint, at: Date) {
  for (const [token, net] of [[pool.token0, net0], [pool.token1, net1]] as const) {
    traded.add(token);
    if (net === 0n) continue;
    out.push({
      blockNumber: log.blockNumber, logIndex: log.logIndex, token, side: net > 0n ? 'sell' : 'buy',
      txHash: log.transactionHash, pool: pool.address, occurredAt: at, amount: net < 0n ? -net : net, valueUsd: null,
    });
  }
}

// Quote tokens first, in their order (each is priced only against quote tokens before it): when one
// moves, every token sharing a pool with it is repriced too. Then the other tokens.
function repriceBlock(ctx: IndexerContext, state: IndexerState, dirty: Set<string>, block: number, at: Date, out: PriceChange[]) {
  const { quotes, quoteRank } = ctx.pricing;
  for (const quote of quotes) {
    if (!dirty.has(quote) || !setPrice(ctx, state, quote, block, at, out)) continue;
    for (const address of state.poolsByToken.get(quote) ?? []) {
      const pool = state.pools.get(address)!;
      dirty.add(pool.token0).add(pool.token1);
    }
  }
  for (const token of [...dirty].sort()) if (!quoteRank.has(token)) setPrice(ctx, state, token, block, at, out);
}

/**
 * The feed rounds read by call rather than from AnswerUpdated logs, by block: the first answer
 * (at the batch's first block) while none is known, and the latest answer at the batch's end when
 * the proxy points at an aggregator not seen before (its earlier logs in this batch were not
 * followed). The aggregator read at the batch end is followed from this batch on.
 */
async function feedRoundsToRead(ctx: IndexerContext, state: IndexerState, from: number, to: number): Promise<Map<number, FeedRound>> {
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
function applyFeedRound(ctx: IndexerContext, state: IndexerState, round: FeedRound, block: number, logIndex: number, out: FeedAnswerWrite[]): boolean {
  const feed = ctx.usdFeed;
  if (!feed || feed.decimals === null || round.answer <= 0n) return false;
  const price = round.answer * 10n ** BigInt(36 - feed.decimals);
  const updatedAt = new Date(round.updatedAt * 1000);
  const moved = state.feed?.price !== price;
  state.feed = { price, updatedAt, blockNumber: block };
  out.push({ feed: feed.address, blockNumber: block, logIndex, answer: round.answer, decimals: feed.decimals, updatedAt });
  return moved;
}

function setPrice(ctx: IndexerContext, state: IndexerState, token: string, block: number, at: Date, out: PriceChange[]): boolean {
  const { price, source } = priceWithSource(state, token, ctx.pricing);
  const previous = state.prices.get(token);
  const moved = price !== (previous?.price ?? null);
  if (!moved && source === (previous?.source ?? null)) return false;
  state.prices.set(token, { price, blockNumber: block, observedAt: at, source });
  out.push({ token, blockNumber: block, price: price === null ? null : formatFixed(price), observedAt: at, source });
  return moved; // (a new source at the same price moves nothing quoted against the token)
}

/**
 * The stable flag of new pools whose creation event lacks it (Etherex legacy), from the pool's own
 * view at the batch's end block (the flag never changes). When the view does not answer, the flag
 * stays null and the family gives the pool no price or depth: it never prices a token by a guessed
 * invariant (its swaps still count).
 */
async function readStableFlags(ctx: IndexerContext, pools: StoredPool[], block: number): Promise<void> {
  const reads = pools.filter((p) => familyOf(p.kind).stableCall && p.stable === null);
  if (reads.length === 0) return;
  const answers = await callMany(ctx.chain, reads.map((p) => ({ to: p.address, data: familyOf(p.kind).stableCall! })), block, ctx.config.multicall3);
  reads.forEach((pool, i) => {
    const answer = answers[i];
    if (answer?.ok && answer.data.length >= 66) pool.stable = BigInt(answer.data.slice(0, 66)) !== 0n;
  });
}

// √price and active liquidity read at the block of a mint, burn or initialisation, by each family's views.
async function readPoolStates(ctx: IndexerContext, reads: { pool: StoredPool; block: number }[]) {
  const result = new Map<string, { sqrtPriceX96: bigint; liquidity: bigint }>();
  const byBlock = new Map<number, StoredPool[]>();
  for (const r of reads) byBlock.set(r.block, [...(byBlock.get(r.block) ?? []), r.pool]);
  for (const [block, pools] of byBlock) {
    const calls = pools.flatMap((pool) => {
      const [price, liquidity] = familyOf(pool.kind).stateCalls ?? [];
      return [{ to: pool.address, data: price ?? '0x' }, { to: pool.address, data: liquidity ?? '0x' }];
    });
    const answers = await callMany(ctx.chain, calls, block, ctx.config.multicall3);
    pools.forEach((pool, i) => {
      const price = answers[i * 2];
      const liquidity = answers[i * 2 + 1];
      if (price?.ok && liquidity?.ok && price.data.length >= 66 && liquidity.data.length >= 66) {
        result.set(`${block}:${pool.address}`, { sqrtPriceX96: BigInt(price.data.slice(0, 66)), liquidity: BigInt(liquidity.data.slice(0, 66)) });
      }
    });
  }
  return result;
}
