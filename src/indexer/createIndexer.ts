// The chain indexer: backfills from startBlock in batches, then follows head − confirmations,
// rolling back on reorgs. Every batch commits with its checkpoint, so a restart resumes exactly.
import type { ChainClient } from '../chain/index.ts';
import { indexerDefaults, type IndexerConfig } from '../config/indexerConfig.ts';
import { rollupPendingCandles, type Database } from '../db/index.ts';
import { createWriterLock, readCheckpoint, type Checkpoint, type CheckpointWithHistory, type WriterLock } from '../db/indexer/index.ts';
import { silentLogger, type IndexerContext, type IndexerLogger } from './IndexerContext.ts';
import { loadIndexerState, type IndexerState } from './state/IndexerState.ts';
import { ChainMismatchError, ReorgDetectedError } from './errors.ts';
import { circulatingRules, type CirculatingRulesInput } from './circulating/circulatingRules.ts';
import { createCheckRounds, freshRoundCalls } from './createCheckRounds.ts';
import { createIndexerContext } from './createIndexerContext.ts';
import { createOutageLog, type Outage } from './createOutageLog.ts';
import { createFollowPacer } from './followPacer.ts';
import { createVacuumSchedule } from './vacuumSchedule.ts';
import { createLaps } from './createLaps.ts';
import { indexBatch, type BatchResult } from './indexBatch.ts';
import { bootstrapCatalogue, type BootstrapResult } from './bootstrapCatalogue.ts';
import { HISTORY_WINDOW_MS, historyAfter, readHistoryRange, sameEdge, writeHistoryRange, type FillCarry, type FillResult, type HistoryEdge, type ReadRange } from './fillHistory.ts';
import { createHistoryRangeSize } from './historyRangeSize.ts';
import { TokenListError, type TokenListEntry } from './loadTokenList.ts';
import { rollbackToAncestor, type RollbackResult } from './rollbackToAncestor.ts';

export type IndexerOptions = {
  db: Database;
  chain: ChainClient;
  config: IndexerConfig;
  logger?: IndexerLogger;
  /** Pre-loaded token list (one chain's entries); otherwise `config.tokenList` is read by start() or the first sync. */
  tokenList?: TokenListEntry[];
  /** The lock that makes one indexer per database the writer (default: the database's advisory lock). */
  writerLock?: WriterLock;
  /** Circulating-supply configuration and the network token's supply rule (default: burn addresses only). */
  circulating?: CirculatingRulesInput;
  /**
   * The client the contract checks read through (default: `chain`). `npm run index` gives it the
   * request budget's idle priority: the checks take what the indexer's own requests leave. When
   * given, rounds that check tokens for the first time follow each other at once (createCheckRounds.ts).
   */
  checksChain?: ChainClient;
  /**
   * The database's statement timeout (default 15 s): a history range whose write fails against it
   * is tried again at half the blocks, and ranges grow back while writes take under a quarter of it.
   */
  writeTimeoutMs?: number;
  /** The rate of the checks' request budget (0: unlimited): it sizes those rounds (createCheckRounds.ts). */
  checksRequestsPerSecond?: number;
};

export type SyncResult = {
  /** The batch indexed, if any. */
  batch: BatchResult | null;
  /** Set when this step rolled back a reorg instead of indexing. */
  reorg: RollbackResult | null;
  /** Set when this step stored the head-first catalogue of an empty database. */
  bootstrap?: BootstrapResult | null;
  /** Set when this step filled a history range below a head-first bootstrap. */
  fill?: FillResult | null;
  /** True when the indexed block has reached head − confirmations and history is filled or waits for the first contract checks (or when standing by). */
  caughtUp: boolean;
  /** True when another indexer holds the writer lock: nothing was done. */
  standby: boolean;
};

/** `leader`: holds the writer lock and writes; `standby`: waits for it; null before the first step. */
export type IndexerRole = 'leader' | 'standby' | null;

export type IndexerStatus = {
  running: boolean;
  role: IndexerRole;
  chainId: number | null;
  startBlock: number;
  chainHead: number | null;
  /** head − confirmations: the block the indexer aims for. */
  targetBlock: number | null;
  indexedBlock: number | null;
  lagBlocks: number | null;
  /** Chain time of the head minus chain time of the indexed block. */
  lagSeconds: number | null;
  backfilling: boolean;
  batches: number;
  swapsIndexed: number;
  reorgs: number;
  lastSyncAt: Date | null;
  lastError: string | null;
  consecutiveErrors: number;
  /** Circulating-supply reads of a token that failed since start (the previous figure was kept). */
  circulatingReadFailures: number;
  /** Tokens whose contract checks were stored since start, and checks that failed or ran out of time. */
  contractChecks: number;
  contractCheckFailures: number;
  /** The chain node or database outages under way (a step failed for them and none succeeded since). */
  outages: Outage[];
  /** Head-first bootstrap: the block history is stored from, and whether it is filled; null when indexed forward. */
  historyFromBlock: number | null;
  historyComplete: boolean;
};

export type Indexer = {
  start(): Promise<void>;
  stop(): Promise<void>;
  syncOnce(): Promise<SyncResult>;
  status(): IndexerStatus;
  /** Waits for the contract checks in flight and stores them (they run beside the steps). */
  settleContractChecks(): Promise<void>;
  /** Ends the wait before the next step now (e.g. the database answers again). */
  wake(): void;
  /**
   * Each exchange with the node (ChainClientOptions.onExchange): the first that fails for want of
   * the node begins its outage in the log at once, not after the step's retries; the first that
   * is answered ends it.
   */
  observeNode(error: unknown): void;
};

export function createIndexer(options: IndexerOptions): Indexer {
  const { db, chain, config } = options;
  const logger = options.logger ?? silentLogger;
  const standbyPollMs = config.standbyPollMs ?? 1000;
  // A step failed for want of the node or the database is tried again at most this long after:
  // the index resumes within about a second of the dependency answering.
  const retryMaxMs = config.retryMaxMs ?? 1000;
  const outages = createOutageLog(logger, retryMaxMs);
  const lock = options.writerLock ?? createWriterLock(db, { heartbeatMs: standbyPollMs });
  let ctx: IndexerContext | null = null;
  let state: IndexerState | null = null;
  // The pool states the last history range started from (the next range ends there); chain facts, dropped on a reorg.
  let fillCarry: FillCarry | null = null;
  // The history range below the last one written, read while that one was written; dropped with fillCarry.
  let readAhead: ReadRange | null = null;
  // Older history waits for the first contract checks (fillOnce); a step then ends caught up (the loop waits).
  let fillWaiting = false;
  const rangeSize = createHistoryRangeSize({ maxBlocks: config.historyRangeBlocks ?? 4000, writeTimeoutMs: options.writeTimeoutMs ?? 15_000 });
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  // wake() called while no wait runs (a step in flight, e.g. failing as the database comes back)
  // ends the next wait at once instead of being lost.
  let wakeMissed = false;
  const wakeNow = () => {
    if (wake) wake();
    else wakeMissed = true;
  };
  let inFlight: Promise<SyncResult> | null = null;
  const circulating = { rules: circulatingRules(options.circulating), failures: { count: 0 } };
  const status: IndexerStatus = {
    running: false, role: null, chainId: null, startBlock: config.startBlock, chainHead: null, targetBlock: null, indexedBlock: null,
    lagBlocks: null, lagSeconds: null, backfilling: true, batches: 0, swapsIndexed: 0, reorgs: 0,
    lastSyncAt: null, lastError: null, consecutiveErrors: 0, circulatingReadFailures: 0,
    contractChecks: 0, contractCheckFailures: 0, outages: [], historyFromBlock: null, historyComplete: true,
  };
  const vacuum = createVacuumSchedule({ db, everyBlocks: config.vacuumEveryBlocks ?? indexerDefaults.vacuumEveryBlocks, logger });
  // Contract checks read beside the steps (never inside one); a step stores what they found.
  const checks = createCheckRounds({
    logger, status, onRead: () => wake?.(), backToBack: options.checksChain !== undefined, currentState: () => state,
    freshRoundCalls: freshRoundCalls(options.checksRequestsPerSecond ?? 0, config.contractCheckTimeoutMs ?? indexerDefaults.contractCheckTimeoutMs),
  });

  async function context(): Promise<IndexerContext> {
    if (ctx) return ctx;
    ctx = await createIndexerContext({ ...options, logger, lock, circulating });
    status.chainId = ctx.chainId;
    return ctx;
  }

  lock.onLost((error) => {
    // Writing stops at once: every write transaction's fence now fails until the lock is retaken.
    logger.error({ err: error }, 'lost the writer lock: writing stopped; standing by');
    status.role = 'standby';
    state = null;
    readAhead = null;
  });

  /** True when this process may write, taking the writer lock when it is free. */
  async function lead(): Promise<boolean> {
    if (await lock.acquire()) {
      if (status.role !== 'leader') {
        // What another writer stored since this process last wrote is read back before writing.
        state = null;
        fillCarry = null;
        readAhead = null;
        logger.info({ standbyPollMs }, status.role === 'standby' ? 'took over the writer lock: indexing' : 'holds the writer lock: indexing');
        status.role = 'leader';
      }
      return true;
    }
    if (status.role !== 'standby') {
      logger.info({ standbyPollMs }, 'standby: another indexer holds the writer lock; trying again every standbyPollMs');
      status.role = 'standby';
    }
    return false;
  }

  async function step(): Promise<SyncResult> {
    // Wall time of the step's parts around its batch (the batch's own are in its `ms`), for the debug log.
    const aroundMs: Record<string, number> = {};
    const around = createLaps(aroundMs);
    const c = await context();
    if (!(await lead())) return { batch: null, reorg: null, caughtUp: true, standby: true };
    state ??= await loadIndexerState(db);
    const checkpoint = await readCheckpoint(db);
    if (checkpoint && checkpoint.chainId !== c.chainId) throw new ChainMismatchError(checkpoint.chainId, c.chainId);
    // Candles a batch left pending and a failure (or a stop) kept from rolling up right after it.
    if (checkpoint?.candlesPending) await rollUpPendingCandles(c, checkpoint.blockNumber);
    around('lead');
    const head = await chain.getBlockNumber();
    around('head');
    const target = head - config.confirmations;
    status.chainHead = head;
    status.targetBlock = target;

    // The checkpoint's block must still be on the chain. A batch above it checks that itself (its
    // first block's parent is the checkpoint's hash), in the headers it reads anyway: the header is
    // read here only when no batch follows, before contract checks are stored at the checkpoint's
    // block, or when the batch found its parent changed.
    const rollBack = async (at: CheckpointWithHistory): Promise<SyncResult> => {
      logger.warn({ block: at.blockNumber }, 'reorg detected: rolling back');
      fillCarry = null;
      readAhead = null;
      const rolled = await rollbackToAncestor(c, at);
      state = rolled.state;
      status.reorgs++;
      status.indexedBlock = rolled.result.to >= config.startBlock ? rolled.result.to : null;
      return { batch: null, reorg: rolled.result, caughtUp: false, standby: false };
    };
    const checkpointGone = async (at: Checkpoint) => (await chain.getBlockHeader(at.blockNumber))?.hash !== at.blockHash;
    if (checkpoint && (checkpoint.blockNumber >= target || checks.pending() > 0) && (await checkpointGone(checkpoint))) return rollBack(checkpoint);
    around('checkpointCheck');
    if (!checkpoint && config.bootstrap === 'head-first' && target >= config.startBlock) {
      // An empty database, head-first: the catalogue at the target block now, history after.
      fillCarry = null;
      readAhead = null;
      // The states read at the head are what the first range starts from for its pools without events.
      const { result: bootstrap, carry } = await bootstrapCatalogue(c, target);
      fillCarry = carry;
      state = null;
      status.indexedBlock = target;
      status.historyFromBlock = target + 1;
      status.historyComplete = false;
      status.backfilling = false;
      await updateLag(null, head, target);
      logger.info({ ...bootstrap }, 'head-first bootstrap: the catalogue at the head block is stored; filling history newest first');
      return { batch: null, reorg: null, bootstrap, fill: null, caughtUp: false, standby: false };
    }
    if (checkpoint && checks.pending() > 0) await storeChecks(c, checkpoint.blockNumber, checkpoint.blockTime);
    around('storeChecks');
    const from = checkpoint ? checkpoint.blockNumber + 1 : config.startBlock;
    status.indexedBlock = checkpoint?.blockNumber ?? null;
    status.historyFromBlock = checkpoint?.history?.fromBlock ?? null;
    status.historyComplete = checkpoint?.history?.complete ?? true;
    if (from > target) {
      const headTime = await updateLag(checkpoint?.blockTime ?? null, head, checkpoint?.blockNumber ?? null);
      status.backfilling = false;
      if (state && headTime) checks.start(c, state, { block: head, time: headTime });
      const fill = checkpoint ? await fillOnce(c) : null;
      return { batch: null, reorg: null, fill, caughtUp: status.historyComplete || fillWaiting, standby: false };
    }
    const to = Math.min(from + config.batchSize - 1, target);
    around('beforeBatch');
    const batch = await indexBatch(c, state, from, to, checkpoint?.blockHash ?? null, to >= target).catch(async (error: unknown) => {
      if (checkpoint && error instanceof ReorgDetectedError && error.blockNumber === checkpoint.blockNumber && (await checkpointGone(checkpoint))) return null;
      throw error;
    });
    if (!batch) return rollBack(checkpoint!);
    around('batch');
    // A batch that repriced much of the catalogue committed without its candles: rolled up now,
    // before anything else (the next batch, a history range) writes.
    if (batch.candlesPending) await rollUpPendingCandles(c, to);
    around('candles');
    status.batches++;
    status.swapsIndexed += batch.swapEvents;
    status.indexedBlock = to;
    vacuum.afterStep(to);
    status.backfilling = target - to > config.batchSize;
    const headTime = await updateLag(batch.toTime, head, to);
    if (headTime) checks.start(c, state, { block: head, time: headTime });
    around('lag');
    // Following the head: one history range after each step that reached it.
    const fill = to >= target ? await fillOnce(c) : null;
    around('fill');
    delete aroundMs.batch;
    logger.debug({ ...batch, toTime: batch.toTime.toISOString(), aroundMs }, 'indexed batch');
    return { batch, reorg: null, fill, caughtUp: to >= target && (status.historyComplete || fillWaiting), standby: false };
  }

  /** Rolls up the candles a batch left pending (writeBatch), in a transaction of its own fenced on the checkpoint. */
  async function rollUpPendingCandles(c: IndexerContext, block: number): Promise<void> {
    const started = performance.now();
    const rows = await db.transaction(async (tx) => {
      await c.fence(tx, block);
      return rollupPendingCandles(tx, block);
    });
    logger.debug({ block, rows, ms: Math.round(performance.now() - started) }, 'rolled up the candles a batch left pending');
  }

  /**
   * One history range below a head-first bootstrap, when one is left to fill; the state as stored
   * after it is kept. The range below it is read and replayed while it is written (the chain's
   * round trips and the replay's JavaScript beside the database's work), and written by the next call
   * when the history still ends where that read began.
   */
  async function fillOnce(c: IndexerContext): Promise<FillResult | null> {
    const checkpoint = await readCheckpoint(db);
    const wasWaiting = fillWaiting;
    fillWaiting = false;
    const ahead = readAhead;
    readAhead = null;
    if (!checkpoint?.history || checkpoint.history.complete) return null;
    // History older than the 7-day window (no answer's window needs it) waits while contract-check
    // rounds find never-checked tokens back to back: they run at the budget's idle priority, and the
    // fill's reads would take what they get (docs/indexer.md, "Contract checks").
    const olderWaits = (window: HistoryEdge) => window.fromTime.getTime() <= checkpoint.blockTime.getTime() - HISTORY_WINDOW_MS && checks.checkingFresh();
    if (olderWaits(checkpoint.history)) {
      readAhead = ahead;
      if (!wasWaiting) logger.info({ historyFrom: checkpoint.history.fromTime.toISOString() }, 'the 7-day window is filled: older history waits while never-checked tokens are checked');
      fillWaiting = true;
      return null;
    }
    if (wasWaiting) logger.info({ historyFrom: checkpoint.history.fromTime.toISOString() }, 'never-checked tokens are checked: filling older history');
    const blocks = rangeSize.blocks();
    const usable = ahead && sameEdge(ahead.edge, checkpoint.history) ? ahead : null;
    const fill = await (async () => {
      const range = usable ?? (await readHistoryRange(c, checkpoint.history!, fillCarry, state, blocks));
      const below = historyAfter(range, checkpoint, config.retention);
      const next = below.complete || olderWaits(below) ? null : readHistoryRange(c, below, range.carry, range.stored, blocks);
      // Both settle before the step ends: nothing of the read runs beside the next step.
      const [written, read] = await Promise.allSettled([writeHistoryRange(c, checkpoint, range, state), next]);
      if (written.status === 'rejected') throw written.reason;
      if (read.status === 'fulfilled') readAhead = read.value;
      else logger.warn({ err: read.reason }, 'reading the next history range ahead failed: the next step reads it again');
      return { ...written.value, readAhead: usable !== null };
    })().catch((error: unknown) => {
      rangeSize.failed(error);
      if (rangeSize.blocks() !== blocks) logger.warn({ blocks, next: rangeSize.blocks() }, 'a history range failed for the database: the next one is smaller');
      throw error;
    });
    rangeSize.stored(fill.ms.write);
    fillCarry = fill.carry;
    state = fill.state;
    status.historyFromBlock = fill.history.fromBlock;
    status.historyComplete = fill.history.complete;
    logger.info({ from: fill.from, to: fill.to, swaps: fill.swaps, statesRead: fill.statesRead, headersRead: fill.headersRead, complete: fill.history.complete, readAhead: fill.readAhead, ms: fill.ms, writeMs: fill.writeMs }, 'filled a history range');
    return fill;
  }

  async function storeChecks(c: IndexerContext, block: number, time: Date) {
    if (!(await checks.store(c, state!, { block, time }))) state = await loadIndexerState(db);
  }

  /** Updates the lag figures; returns the head's chain time (null when unknown). */
  async function updateLag(indexedTime: Date | null, head: number, indexed: number | null): Promise<Date | null> {
    status.lagBlocks = indexed === null ? null : Math.max(0, head - indexed);
    if (indexedTime === null || indexed === null) {
      status.lagSeconds = null;
      return null;
    }
    if (indexed >= head) {
      status.lagSeconds = 0;
      return indexedTime;
    }
    const headHeader = await chain.getBlockHeader(head);
    status.lagSeconds = headHeader ? Math.max(0, headHeader.timestamp - Math.floor(indexedTime.getTime() / 1000)) : null;
    return headHeader ? new Date(headHeader.timestamp * 1000) : null;
  }

  // One step at a time, whether called by the loop or directly.
  function syncOnce(): Promise<SyncResult> {
    if (inFlight) return inFlight.then(() => syncOnce(), () => syncOnce());
    inFlight = step()
      .then((result) => {
        status.lastSyncAt = new Date();
        status.lastError = null;
        status.consecutiveErrors = 0;
        return result;
      })
      .catch((error: unknown) => {
        // In-memory state may be half-applied: reload it from the database next time.
        state = null;
        readAhead = null;
        status.lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        status.consecutiveErrors++;
        throw error;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakeMissed) {
        wakeMissed = false;
        return resolve();
      }
      const timer = setTimeout(() => ((wake = null), resolve()), ms);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });

  async function run() {
    const pacer = createFollowPacer(config.pollIntervalMs);
    while (running) {
      try {
        const startedAt = Date.now();
        const result = await syncOnce();
        outages.succeeded();
        if (result.caughtUp && running) {
          await sleep(result.standby ? standbyPollMs : pacer.delayAfter({ startedAt, foundBlocks: result.batch !== null }, Date.now()));
        }
      } catch (error) {
        // A dependency's outage is logged when it begins and when it ends, not at every retry.
        const dependency = outages.failed(error);
        if (!dependency) {
          const expected = error instanceof ReorgDetectedError;
          logger[expected ? 'warn' : 'error']({ err: error, consecutiveErrors: status.consecutiveErrors }, 'indexer step failed; retrying');
        }
        if (error instanceof ChainMismatchError) {
          running = false;
          break;
        }
        const backoff = config.pollIntervalMs * 2 ** Math.min(status.consecutiveErrors - 1, 4);
        if (running) await sleep(Math.min(dependency ? retryMaxMs : 30_000, backoff));
      }
    }
    status.running = false;
  }

  return {
    async start() {
      if (running) return;
      // A token list that cannot be read is a start-up error, not a step to retry forever.
      // Anything else here (node down) is left to the loop's retries.
      await context().catch((error: unknown) => {
        if (error instanceof TokenListError) throw error;
      });
      if (running) return;
      running = true;
      status.running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
      await inFlight?.catch(() => {});
      await checks.settled();
      await vacuum.settled();
      await lock.release();
      if (status.role === 'leader') status.role = null;
    },
    syncOnce,
    async settleContractChecks() {
      await inFlight?.catch(() => {});
      await checks.settled();
      if (checks.pending() > 0) await syncOnce();
    },
    status: () => ({ ...status, circulatingReadFailures: circulating.failures.count, outages: outages.current() }),
    wake: wakeNow,
    observeNode(error) {
      if (error === undefined) outages.answered('chain node');
      else if (running) outages.failed(error);
    },
  };
}
