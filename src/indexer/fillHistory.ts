// The history below a head-first bootstrap, one range of blocks [a, b] per call, newest first
// (b = the block before the stored history, a = b − historyRangeBlocks + 1, never below the start
// block; with bucketed block times moved down to the first block of its 5-minute bucket). The
// range is replayed exactly as a forward batch replays it, from the state in force before it: every
// pool created before a at its state read by call at a − 1 (a pool without events in the range
// keeps the state the previous range started from, when the indexer holds it), its concentrated
// positions summed from their stored events before a, the USD feed's round at a − 1, and every
// price computed from those. The range's swaps, price changes, hourly points, candles and pool
// states are then written, the prices in force at a − 1 carried there (replacing the ones carried
// at b), token and pool rows rebuilt (only those the range can change: catalogueScope), and the
// history window moved to a, all in one transaction fenced on the checkpoint. Reading and
// replaying a range (readHistoryRange) is apart from writing it (writeHistoryRange), so the next
// range can be read while this one is written. History is complete at the start block or once it
// reaches as far back before the indexed head as price changes are kept (historyKeepMs; at least
// the 7-day window).
import { retentionDefaults, type RetentionConfig } from '../config/retentionConfig.ts';
import { appendPricePoints, bumpHistoryGeneration, prependCandles, recordSwaps } from '../db/index.ts';
import {
  deleteCarriedPriceChanges, dropProvisionalStates, loadLiquidityNet, markInexactBuckets, saveFeedAnswers, savePoolStates, savePositionChanges,
  savePriceChanges, writeHistoryWindow, type CheckpointWithHistory, type HistoryWindow, type PoolState, type PoolStateWrite, type PriceChange, type StoredPool,
} from '../db/indexer/index.ts';
import type { FillCarry } from './FillCarry.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { blockTimes } from './blockTimes.ts';
import { bucketedBlockTimes, bucketStartOf, emptyBlockTimeCache } from './bucketedBlockTimes.ts';
import { readFeedAt } from './bootstrapCatalogue.ts';
import { TOPICS } from './families/events.ts';
import { emptyState, familyOf } from './families/index.ts';
import { bucketOf, exactRangeAtEdges, WINDOW_EDGES_MS, type InexactBlocks } from './exactEdgeTimes.ts';
import { readPoolStates } from './readDiscoveredState.ts';
import { readPoolStatesAt } from './readHeadState.ts';
import { repriceBlock, replayBlocks, type Replay } from './replayBlocks.ts';
import { addPool, loadIndexerState, type IndexerState } from './state/IndexerState.ts';
import { createLaps } from './createLaps.ts';
import { planFeed } from './usdFeed.ts';
import { writeCatalogue, type CatalogueScope } from './writeCatalogue.ts';

export type { FillCarry };

/** The longest window an answer reads (`priceChange.d7`, 7-day candles). */
export const HISTORY_WINDOW_MS = 7 * 86_400_000;

/**
 * How far back history is filled: the 7-day window, or further as far as price changes are kept
 * (RETENTION_PRICE_CHANGES, default 90 days; `forever`: to the start block). Swaps, hourly points
 * and candles older than their own retention are pruned after, as in a forward index.
 */
export function historyKeepMs(retention: RetentionConfig): number {
  return retention.priceChanges === null ? Infinity : Math.max(HISTORY_WINDOW_MS, retention.priceChanges);
}

export type FillResult = {
  from: number;
  to: number;
  logs: number;
  /** Stored swap rows (one per token of the pool). */
  swaps: number;
  priceChanges: number;
  /**
   * Headers read for block times: exact, the blocks whose logs carry no blockTimestamp and the block
   * before the range; bucketed, the block before the range and the searches' reads at the boundaries.
   */
  headersRead: number;
  /** Pools whose state at a − 1 was read by call (the others came from the previous range). */
  statesRead: number;
  history: HistoryWindow;
  /** For the next range. */
  carry: FillCarry;
  /** The indexer state as stored once the range committed. */
  state: IndexerState;
  /** Read and replayed while the range above it was written (createIndexer's read-ahead). */
  readAhead: boolean;
  /** Wall time of the step's parts: loading state, reading the chain, replaying, the write transaction. */
  ms: { load: number; read: number; replay: number; write: number };
  /** The write transaction's parts (wall ms): price changes and states, swaps and points, candles, the state read back, token and pool rows. */
  writeMs: Record<string, number>;
};


/** The edge of the stored history a range is read below (the checkpoint's history window, or the one a range read ahead leaves). */
export type HistoryEdge = Pick<HistoryWindow, 'bootstrapBlock' | 'fromBlock' | 'fromTime'>;

/** A range read from the chain and replayed, not written yet (readHistoryRange → writeHistoryRange). */
export type ReadRange = {
  edge: HistoryEdge;
  from: number;
  to: number;
  hasBefore: boolean;
  /** The time of the block before the range (of its first block when it starts at the start block). */
  fromTime: Date;
  scratch: IndexerState;
  replay: Replay;
  /** Every token's price in force at a − 1, carried there. */
  carried: PriceChange[];
  /** The blocks with rows whose times are interpolated (bucketed times), by bucket. */
  inexact: InexactBlocks;
  logs: number;
  headersRead: number;
  statesRead: number;
  carry: FillCarry;
  /** The indexer state it was read with (only its tokens' and pools' fixed fields are read). */
  stored: IndexerState;
  ms: { load: number; read: number; replay: number };
};

/**
 * Reads the range below `edge` from the chain and replays it. It reads nothing a range's write or a
 * forward batch above the bootstrap block changes (the tokens' and pools' fixed fields, positions
 * stored before the range, the chain), so it may run while the range above it is being written.
 * `head`: the indexer state as stored, when the caller holds it (else it is loaded); only its tokens
 * and pools are read, never changed.
 */
export async function readHistoryRange(
  ctx: IndexerContext, edge: HistoryEdge, carry: FillCarry | null, head: IndexerState | null, rangeBlocks: number,
): Promise<ReadRange> {
  const { chain, config } = ctx;
  const floor = config.startBlock;
  const b = edge.fromBlock - 1;
  // Bucketed block times: the range starts at the first block of a 5-minute bucket (bucketedBlockTimes.ts).
  const bucketed = config.historyBlockTimes === 'bucketed';
  const timeCache = carry?.blockTimes ?? emptyBlockTimeCache();
  const start = Math.max(floor, b - rangeBlocks + 1);
  const aligned = bucketed ? await bucketStartOf(chain, start, floor, edge.bootstrapBlock, timeCache) : { block: start, headersRead: 0 };
  const a = aligned.block;
  const before = a - 1;
  const hasBefore = a > floor;
  const started = performance.now();

  // The pools and tokens as a forward batch of the range knows them: created or seen before it or in it.
  const stored = head ?? (await loadIndexerState(ctx.db));
  const tokens = new Map([...stored.tokens].filter(([, t]) => t.firstSeenBlock <= b));
  const scratch: IndexerState = {
    tokens, pools: new Map(), poolsByToken: new Map(), prices: new Map(), feed: null,
    swaps24h: new Map(), trustWritten: new Map(), lures: new Map(), contractChecks: new Map(),
  };
  for (const pool of stored.pools.values()) {
    if (pool.createdBlock <= b) addPool(scratch, { ...pool, lastEventAt: null, state: emptyState(), liquidityNet: new Map() });
  }
  const loaded = performance.now();
  const feedBefore = hasBefore ? (await readFeedAt(ctx, scratch, before)).phase : undefined;

  // The range's pool events, by topic, of the pools known by then; the USD feed's answers.
  const topics = new Set<string>();
  for (const f of ctx.factories.values()) for (const t of f.family.poolTopics) topics.add(t);
  if (ctx.usdFeed) topics.add(TOPICS.answerUpdated);
  const logs = (await chain.getLogs({ fromBlock: a, toBlock: b, topics: [[...topics]] }))
    .filter((l) => !l.removed)
    .sort((x, y) => x.blockNumber - y.blockNumber || x.logIndex - y.logIndex);

  // The state in force before a of every pool created before it: by call at a − 1, except a pool
  // without events in the range when the previous range's start states are at hand (its state at
  // a − 1 is its state at b, the block before that range). Positions summed from their events before a.
  const older = [...scratch.pools.values()].filter((p) => p.createdBlock < a);
  const active = new Set(logs.map((l) => ctx.poolOf(l)));
  const previous = carry && carry.fromBlock === edge.fromBlock ? carry.states : null;
  const toRead = hasBefore ? older.filter((p) => active.has(p.address) || !previous?.has(p.address)) : [];
  const read = await readPoolStatesAt(ctx, toRead, before);
  const net = hasBefore ? await loadLiquidityNet(ctx.db, a) : new Map<string, Map<number, bigint>>();
  const startStates = new Map<string, PoolState | null>();
  for (const pool of older) {
    const state = read.has(pool.address) ? read.get(pool.address)! : (previous?.get(pool.address) ?? null);
    startStates.set(pool.address, state);
    pool.state = state ?? emptyState();
    pool.liquidityNet = new Map(net.get(pool.address) ?? []);
  }
  // The feed's answers in the range: the same rule as a forward batch's (usdFeed.ts).
  const { rounds: feedRounds, isFeedLog } = await planFeed(ctx, scratch, a, b, feedBefore);
  const relevant = logs.filter((l) => scratch.pools.has(ctx.poolOf(l)) || isFeedLog(l));
  const tokenFirstSeen = new Map<string, number>();
  for (const token of stored.tokens.values()) if (token.firstSeenBlock >= a && token.firstSeenBlock <= b) tokenFirstSeen.set(token.address, token.firstSeenBlock);

  // Concentrated pools' √price and liquidity after mints and burns, as a forward batch reads them.
  const reads = new Map<string, { pool: StoredPool; block: number }>();
  for (const log of relevant) {
    const pool = scratch.pools.get(ctx.poolOf(log));
    if (!pool || pool.createdBlock > log.blockNumber || !familyOf(pool.kind).stateReadTopics?.includes(log.topics[0] ?? '')) continue;
    reads.set(`${log.blockNumber}:${pool.address}`, { pool, block: log.blockNumber });
  }
  const readStates = await readPoolStates(ctx, [...reads.values()]);

  const needed = [...relevant.map((l) => l.blockNumber), ...tokenFirstSeen.values(), ...feedRounds.keys(), hasBefore ? before : a];
  const firstSeenTimes = new Map([...tokenFirstSeen.keys()].map((t) => [stored.tokens.get(t)!.firstSeenBlock, stored.tokens.get(t)!.firstSeenAt] as const));
  // Block times: every block's header where the logs carry none (exact), or only the 5-minute
  // boundaries' first blocks, the others interpolated inside their bucket (bucketed).
  const times = bucketed
    ? await bucketedBlockTimes(chain, {
      logs: relevant, blocks: needed, known: firstSeenTimes, low: hasBefore ? before : a, high: { block: b, time: edge.fromTime },
      floor, limit: { block: edge.bootstrapBlock, time: b === edge.bootstrapBlock ? edge.fromTime : undefined }, cache: timeCache,
      // The API's window edges back from the bootstrap block are searched exactly too: the figures
      // at that head count each swap and price change on its true side of them.
      edgesBack: WINDOW_EDGES_MS.map((ms) => ms / 1000),
    })
    : await blockTimes(chain, relevant, needed, firstSeenTimes);

  const inexact: InexactBlocks = new Map();
  for (const n of new Set(needed)) {
    if (!times.inexact?.(n)) continue;
    const bucket = bucketOf(times.timeOf(n).getTime());
    inexact.set(bucket, [...(inexact.get(bucket) ?? []), n]);
  }

  const readDone = performance.now();
  const carried: PriceChange[] = [];
  const seenBefore = [...tokens.values()].filter((t) => t.firstSeenBlock < a).map((t) => t.address);
  if (hasBefore) await repriceBlock(ctx, scratch, new Set(seenBefore), before, times.timeOf(before), carried);
  for (const c of carried) c.carried = true;
  const replay = await replayBlocks(ctx, scratch, { logs: relevant, isFeedLog, tokenFirstSeen, feedRounds, readStates, timeOf: times.timeOf });
  return {
    edge, from: a, to: b, hasBefore, fromTime: times.timeOf(hasBefore ? before : a), scratch, replay, carried, inexact,
    logs: relevant.length, headersRead: aligned.headersRead + times.headersRead, statesRead: toRead.length,
    carry: { fromBlock: a, states: startStates, blockTimes: timeCache }, stored,
    ms: { load: Math.round(loaded - started), read: Math.round(readDone - loaded), replay: Math.round(performance.now() - readDone) },
  };
}

/** The history window once `range` is written at the checkpoint (complete: no range is left below it). */
export function historyAfter(range: ReadRange, checkpoint: CheckpointWithHistory, retention: RetentionConfig | undefined): HistoryWindow {
  return {
    bootstrapBlock: range.edge.bootstrapBlock, fromBlock: range.from, fromTime: range.fromTime,
    complete: !range.hasBefore || range.fromTime.getTime() <= checkpoint.blockTime.getTime() - historyKeepMs(retention ?? retentionDefaults),
  };
}

/** A range read below `edge` can be written below `window` only while the stored history still ends there. */
export function sameEdge(edge: HistoryEdge, window: HistoryEdge): boolean {
  return edge.bootstrapBlock === window.bootstrapBlock && edge.fromBlock === window.fromBlock && edge.fromTime.getTime() === window.fromTime.getTime();
}

/**
 * Writes a range read below the checkpoint's history window, in one transaction fenced on the
 * checkpoint. `stored`: the indexer state as stored now (its pools' last events decide which states
 * the range stores), or null to load it.
 */
export async function writeHistoryRange(
  ctx: IndexerContext, checkpoint: CheckpointWithHistory, range: ReadRange, stored: IndexerState | null,
): Promise<FillResult> {
  const window = checkpoint.history!;
  if (!sameEdge(range.edge, window)) {
    throw new Error(`a history range read below block ${range.edge.fromBlock} cannot be written below ${window.fromBlock}`);
  }
  const { from: a, to: b, hasBefore, replay, carried, scratch } = range;
  const started = performance.now();
  // Rows in the window edges' regions get their own times; other interpolated buckets are listed (exactEdgeTimes.ts).
  const edgeCache = stored?.edgeTimes ?? new Map<number, Date>();
  const edgeTimes = await exactRangeAtEdges(
    ctx.chain, range.inexact, { swaps: replay.swaps, priceChanges: [...carried, ...replay.priceChanges] }, checkpoint.blockTime, checkpoint.bootstrapTime ?? null,
    edgeCache,
  );
  const now = stored ?? (await loadIndexerState(ctx.db));
  const history = historyAfter(range, checkpoint, ctx.config.retention);
  const writeParts: Record<string, number> = {};
  const lap = createLaps(writeParts);
  const stateRows = newestStates(replay.poolStates, now);
  const scope = catalogueScope(window.fromTime, history, checkpoint.blockTime, stateRows, scratch);
  // Candles: a range that rewrites every row carries every price to a − 1 (the window's edge a
  // candle answer starts from); a scoped one only the prices of the tokens it has records of (the
  // open of their first bucket), and the others' carried rows stay at the edge of the last range that
  // carried them until one does again (the range that completes the history, at the latest).
  const recorded = new Set<string>([...replay.priceChanges.filter((c) => c.price !== null).map((c) => c.token), ...replay.swaps.map((s) => s.token)]);
  const candleCarried = scope ? carried.filter((c) => recorded.has(c.token)) : carried;
  const after = await ctx.db.transaction(async (tx) => {
    await ctx.fence(tx, checkpoint.blockNumber);
    await deleteCarriedPriceChanges(tx, a, b);
    lap('carriedDeleted');
    await savePriceChanges(tx, [...carried, ...replay.priceChanges]);
    lap('priceChanges');
    await savePoolStates(tx, stateRows);
    await dropProvisionalStates(tx, [...replay.changedPools]);
    await savePositionChanges(tx, replay.positions);
    await saveFeedAnswers(tx, replay.feedAnswers);
    lap('states');
    await appendPricePoints(
      tx,
      replay.priceChanges.filter((c) => c.price !== null).map((c) => ({ token: c.token, price: c.price!, observedAt: c.observedAt, blockNumber: c.blockNumber })),
    );
    await recordSwaps(tx, replay.swaps);
    await markInexactBuckets(tx, edgeTimes.listed);
    lap('swaps');
    await prependCandles(
      tx, [...candleCarried.map((c) => ({ ...c, blockNumber: 0 })), ...replay.priceChanges], replay.swaps, hasBefore ? range.fromTime : null,
      undefined, scope ? [...recorded] : undefined,
    );
    lap('candles');
    const written = await loadIndexerState(tx);
    lap('reload');
    await writeCatalogue(tx, ctx, written, checkpoint.blockTime, scope);
    lap('catalogue');
    await writeHistoryWindow(tx, history);
    // Carried prices and carried-only candles were deleted (no token or pool): API processes reload
    // the price histories in full; the token catalogue follows by version.
    await bumpHistoryGeneration(tx);
    return written;
  });
  after.edgeTimes = edgeCache;
  after.edgeLookahead = stored?.edgeLookahead;
  return {
    from: a, to: b, logs: range.logs, swaps: replay.swaps.length, priceChanges: replay.priceChanges.length, headersRead: range.headersRead + edgeTimes.headersRead,
    statesRead: range.statesRead, history, carry: range.carry, state: after, readAhead: false,
    ms: { ...range.ms, write: Math.round(performance.now() - started) },
    writeMs: writeParts,
  };
}

/**
 * Which token and pool rows a range can change, given the window's old and new edges at the indexed
 * head's time `at`. Every row when the history is complete, when the range holds blocks of the last
 * 24 h (swap counts, volumes, trust) or when it fills past the start of a window an answer reads
 * (1 h, 6 h, 24 h, 7 d: that figure of every token is known from then on). Otherwise nothing a row
 * holds depends on the range but a pool's last event: the tokens of the pools whose newest state the
 * range stores (their market time) and those pools. (Forward batches refresh every priced token's
 * window figures as the head moves, so a window completed by the head's moving is theirs.)
 */
export function catalogueScope(
  oldFrom: Date, history: HistoryWindow, at: Date, stateRows: readonly PoolStateWrite[], state: IndexerState,
): CatalogueScope | undefined {
  const head = at.getTime();
  if (history.complete || oldFrom.getTime() >= head - 86_400_000) return undefined;
  if (WINDOW_EDGES_MS.some((ms) => history.fromTime.getTime() <= head - ms && oldFrom.getTime() > head - ms)) return undefined;
  const pools = new Set(stateRows.map((s) => s.pool));
  const tokens = new Set<string>();
  for (const address of pools) {
    const pool = state.pools.get(address);
    if (pool) tokens.add(pool.token0).add(pool.token1);
  }
  return { tokens, pools };
}

/**
 * The pool-state rows a range stores: only a pool's newest state, and only while its newest stored
 * row is the bootstrap's provisional one (no event of it above the range). A state below the newest
 * is never read (pools load their newest row; a reorg above the bootstrap block never reaches below
 * it; a forward index prunes such rows too), so writing every block's state filled the table with
 * rows nothing reads.
 */
export function newestStates(states: readonly PoolStateWrite[], stored: IndexerState): PoolStateWrite[] {
  const newest = new Map<string, PoolStateWrite>();
  for (const state of states) {
    if (stored.pools.get(state.pool)?.lastEventAt) continue;
    const seen = newest.get(state.pool);
    if (!seen || seen.blockNumber <= state.blockNumber) newest.set(state.pool, state);
  }
  return [...newest.values()];
}
