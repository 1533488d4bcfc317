// A batch's write step: every row the batch changes and its checkpoint, in one transaction fenced
// on the checkpoint it continues from, so they land together or not at all.
import type { BlockHeader } from '../chain/index.ts';
import {
  appendPricePoints, applyRetention, markCandlesPending, readDataVersion, recordSwaps, refreshSwapCounts, rollupCandles, shiftSwapCounts, upsertPools, upsertTokens,
} from '../db/index.ts';
import { indexerDefaults } from '../config/indexerConfig.ts';
import { retentionDefaults, type RetentionConfig } from '../config/retentionConfig.ts';
import {
  clearEdgesFixedAt, loadPriceValueTimes, prunePoolStates, readCheckpoint, saveBlocks, saveFeedAnswers, saveIndexerTokens, savePoolStates, savePools, savePositionChanges, savePriceChanges, writeCheckpoint,
  type IndexerToken, type StoredPool,
} from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { createEdgeLookahead, pricesRetimed, readEdgeTimes, writeEdgeTimes } from './exactEdgeTimes.ts';
import { buildPoolWrites } from './buildPoolWrites.ts';
import { buildTokenWrites } from './buildTokenWrites.ts';
import { createPoolFigures } from './pricing/poolFigures.ts';
import { PRICE_WINDOWS, tokensWhoseWindowsMoved } from './pricing/priceWindows.ts';
import { windowPricesOf } from './pricing/windowPriceCache.ts';
import type { Replay } from './replayBlocks.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { writeTokenTrust, type TrustScope } from './trust/writeTokenTrust.ts';
import type { Lap } from './createLaps.ts';
import { buildInSlices } from './yieldEvery.ts';
import { maintenanceDue } from './maintenanceDue.ts';

const PRUNE_EVERY = 1000;
const DAY_MS = 86_400_000;
const LONGEST_WINDOW_MS = Math.max(...Object.values(PRICE_WINDOWS));

export type BatchWrite = {
  from: number;
  to: number;
  /** The checkpoint's block the batch continues from; null for the first batch. */
  parentBlock: number | null;
  headers: ReadonlyMap<number, BlockHeader>;
  newPools: readonly StoredPool[];
  /** Tokens new in the batch or whose supplies changed: read from the node while the edges' times are. */
  changedTokens: Promise<readonly IndexerToken[]>;
  replay: Replay;
  /** The batch reaches the block the step aims at: following the head, not backfilling. */
  atHead?: boolean;
};

/**
 * Whether pruning under `retention` can delete a row a token figure reads: a price change a window
 * start (up to 7 days back) finds, or a swap inside the 24 h window. Pruning keeps each token's latest
 * change before its horizon, so with price changes kept at least as long as the longest window (and
 * swaps at least a day) every figure reads what it read before: the batch after pruning goes on
 * from the stored figures; otherwise it computes them from scratch.
 */
export function retentionReachesFigures(retention: Pick<RetentionConfig, 'priceChanges' | 'swaps'>): boolean {
  const shorter = (kept: number | null, window: number) => kept !== null && kept < window;
  return shorter(retention.priceChanges, LONGEST_WINDOW_MS) || shorter(retention.swaps, DAY_MS);
}

/**
 * Writes a forward batch; returns how many headers the moving edges' exact times read, how many
 * token rows it rewrote, and whether it left its candles to be rolled up after its commit
 * (rollupPendingCandles, in a transaction of its own: createIndexer's step does so right after).
 */
export async function writeBatch(
  ctx: IndexerContext, state: IndexerState, batch: BatchWrite, lap: Lap = () => {},
): Promise<{ edgeHeaders: number; tokensWritten: number; candlesPending: boolean }> {
  const { config, db } = ctx;
  const { from, to, replay } = batch;
  const header = batch.headers.get(to)!;
  const toTime = new Date(header.timestamp * 1000);
  const affected = new Set<string>([...replay.traded, ...replay.priceChanges.map((c) => c.token)]);
  const retention = config.retention ?? retentionDefaults;
  const maintenance = maintenanceDue(
    { from, to, priceChanges: replay.priceChanges.length }, { retentionEveryBlocks: retention.everyBlocks, pruneEveryBlocks: PRUNE_EVERY }, state.maintenanceLeft,
  );
  // Pool rows: new and changed pools, and the pools of a token whose price moved where that moves
  // their USD liquidity: it needs both tokens priced, so a pool whose other token was unpriced
  // before and after this batch keeps null. Token rows: a pool moves its priced tokens' liquidity
  // and market time; an unpriced token's row (every figure null) stays as it is.
  const repriced = new Set(replay.priceChanges.map((c) => c.token));
  const pricedOrRepriced = (token: string) => state.prices.get(token)?.price != null || repriced.has(token);
  const touchedPools = new Set<string>([...batch.newPools.map((p) => p.address), ...replay.changedPools]);
  for (const token of repriced) {
    for (const address of state.poolsByToken.get(token) ?? []) {
      const pool = state.pools.get(address)!;
      if (pricedOrRepriced(pool.token0 === token ? pool.token1 : pool.token0)) touchedPools.add(address);
    }
  }
  for (const address of touchedPools) {
    const pool = state.pools.get(address)!;
    for (const token of [pool.token0, pool.token1]) if (pricedOrRepriced(token)) affected.add(token);
  }
  const figures = createPoolFigures(state);
  // Token rows whose window prices may have moved: those whose window starts passed a stored price
  // change since the last batch; every priced token's when that time is not known (a state loaded
  // or rebuilt: a history range may have stored older rows; the batch after retention ran: it may
  // have dropped a row a window started from) or a day or more passed.
  const since = state.windowsWrittenAt;
  const windowsFromScratch = since === undefined || since > toTime || toTime.getTime() - since.getTime() >= DAY_MS;
  // Interpolated history times the window edges reach on their way from the stored window end to
  // this one become exact first (exactEdgeTimes.ts); from an earlier head when the stored ones
  // are fixed only as at that one (migration 021).
  const stored = await readCheckpoint(db);
  const fixedAt = stored?.edgesFixedAt ?? null;
  const previous = since ?? stored?.blockTime ?? toTime;
  const edgesFrom = fixedAt !== null && fixedAt < previous ? fixedAt : previous;
  const bootstrap = stored?.bootstrapTime && stored.history ? { block: stored.history.bootstrapBlock, time: stored.bootstrapTime } : null;
  state.edgeTimes ??= new Map();
  state.edgeLookahead ??= createEdgeLookahead();
  const edgeTimes = await readEdgeTimes(db, ctx.chain, bootstrap, edgesFrom, toTime, state.edgeTimes, state.edgeLookahead);
  lap('edgeTimes');
  // Following the head, a batch that reprices much of the catalogue at once (a USD feed round:
  // every token quoted against the wrapped native token, five candle rows each) commits without
  // its candles, so that its checkpoint lands sooner (a backfill keeps them in its one transaction,
  // where they are written beside the token rows' JavaScript). The caller rolls up candles left
  // pending before it writes another batch (createIndexer's step): after this batch's, they would
  // be rolled up out of block order.
  if (stored?.candlesPending) throw new Error(`candles are pending from block ${stored.candlesPending.fromBlock}: roll them up before the next batch`);
  const parentTime = stored?.blockTime ?? null; // the time of block from − 1, where the candle series ends meanwhile
  const deferCandles = batch.atHead === true && parentTime !== null
    && replay.priceChanges.length > (config.candlesDeferredAbove ?? indexerDefaults.candlesDeferredAbove);
  const changedTokens = await batch.changedTokens;
  for (const token of changedTokens) affected.add(token.address);
  lap('supplies');
  let tokensWritten = 0;
  await db.transaction(async (tx) => {
    await ctx.fence(tx, batch.parentBlock);
    const versionAtStart = await readDataVersion(tx);
    const retimed = await writeEdgeTimes(tx, edgeTimes);
    if (fixedAt !== null) await clearEdgesFixedAt(tx);
    await saveIndexerTokens(tx, changedTokens);
    await savePools(tx, batch.newPools);
    await savePoolStates(tx, replay.poolStates);
    await savePositionChanges(tx, replay.positions);
    await savePriceChanges(tx, replay.priceChanges);
    await saveFeedAnswers(tx, replay.feedAnswers);
    // A token whose price's times the retimed changes move: the times as a reload reads them (this
    // batch's changes stored first), its row rewritten.
    const moved = pricesRetimed(state.prices, retimed);
    for (const [token, time] of moved.latest) {
      state.prices.get(token)!.observedAt = time;
      affected.add(token);
    }
    if (moved.valueStart.length > 0) {
      const valueTimes = await loadPriceValueTimes(tx, moved.valueStart);
      for (const token of moved.valueStart) {
        const price = state.prices.get(token)!;
        const since = valueTimes.get(token) ?? price.valueSince;
        if (since.getTime() !== price.valueSince.getTime()) affected.add(token);
        price.valueSince = since;
      }
    }
    lap('writeEvents');
    let windowsMoved: string[] | null = null;
    if (windowsFromScratch) {
      for (const [token, p] of state.prices) if (p.price !== null) affected.add(token);
    } else {
      windowsMoved = await tokensWhoseWindowsMoved(tx, since!, toTime);
      for (const token of windowsMoved) if (state.prices.get(token)?.price != null) affected.add(token);
    }
    const tokens = [...affected].sort();
    tokensWritten = tokens.length;
    const pricesAgo = await windowPricesOf(tx, toTime, tokens, (state.windowPrices ??= new Map()), windowsMoved);
    lap('writeWindowPrices');
    // Statements are sent as soon as what they need is built and awaited together at the end, so
    // that the database writes while the rows after them are built; the connection runs them in
    // the order sent. Candles (from the batch's price changes and valued swaps) need only the
    // replay; hourly points and swaps follow the token rows (their foreign keys).
    const candleRows = deferCandles
      ? markCandlesPending(tx, { fromBlock: from, throughTime: parentTime! }).then(() => 0)
      : rollupCandles(tx, replay.priceChanges, replay.swaps);
    candleRows.catch(() => {}); // awaited below; a failure before that must not go unhandled
    const tokenContext = { pricesAgo, at: toTime, pricing: ctx.pricing, listedSymbols: ctx.listedSymbols, figures };
    const tokenRows = upsertTokens(tx, await buildInSlices(tokens, (slice) => buildTokenWrites(state, slice, tokenContext)));
    const eventRows = Promise.all([
      tokenRows,
      appendPricePoints(
        tx,
        replay.priceChanges.filter((c) => c.price !== null).map((c) => ({ token: c.token, price: c.price!, observedAt: c.observedAt, blockNumber: c.blockNumber })),
      ),
      recordSwaps(tx, replay.swaps),
    ]);
    eventRows.catch(() => {});
    lap('buildTokens');
    const poolWrites = await buildInSlices([...touchedPools].sort(), (slice) => buildPoolWrites(state, slice, figures));
    lap('buildPools');
    await Promise.all([candleRows, eventRows, upsertPools(tx, poolWrites, versionAtStart)]);
    lap('writeRows');
    // The 24 h counts: moved by the swaps entering and leaving the window when the stored ones are
    // those at `since` (the same condition as the window prices'), else recounted.
    let trustScope: TrustScope | undefined;
    if (windowsFromScratch) await refreshSwapCounts(tx, toTime, state.swaps24h);
    else {
      const counted = await shiftSwapCounts(tx, { since: since!, windowEnd: toTime, enteredFromBlock: from }, state.swaps24h);
      // Scores move with their inputs (the rows above, the counts) and with the tokens' ages.
      trustScope = { since: since!, changed: new Set([...affected, ...counted]) };
    }
    lap('writeSwapCounts');
    await writeTokenTrust(tx, ctx, state, figures, toTime, trustScope);
    lap('writeTrust');
    const stored = [...batch.headers.values()].map((h) => ({ number: h.number, hash: h.hash, time: new Date(h.timestamp * 1000) }));
    await saveBlocks(tx, stored, config.reorgDepth);
    // Pool-state history below the oldest stored hash can never be rolled back to: keep only the latest row.
    if (maintenance.run.prune) {
      const oldest = await tx.query<{ n: string | null }>(`SELECT min(block_number)::text AS n FROM indexer_blocks`);
      if (oldest[0]?.n) await prunePoolStates(tx, Number(oldest[0].n));
    }
    // Swaps, price changes, hourly prices and candles behind their retention, in bounded statements;
    // here, not per batch, as each table's pruning costs a few statements even when nothing is due.
    if (maintenance.run.retention) await applyRetention(tx, retention, toTime);
    await writeCheckpoint(tx, { chainId: ctx.chainId, blockNumber: to, blockHash: header.hash, blockTime: toTime });
  });
  // Retention's deletes are not followed row by row: where they can reach a figure, the next batch starts from scratch.
  state.windowsWrittenAt = maintenance.run.retention && retentionReachesFigures(retention) ? undefined : toTime;
  state.maintenanceLeft = maintenance.leave;
  lap('writeRest');
  return { edgeHeaders: edgeTimes.headersRead, tokensWritten, candlesPending: deferCandles };
}
