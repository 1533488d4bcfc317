import { UnavailableError } from '../errors/index.ts';
import { isDatabaseFault } from '../db/index.ts';

/** While the last check failed, requests start a new one at most this often (the polls go on). */
export const STALE_RECHECK_MS = 1000;

export type HeldDataGate = {
  /** True when the data should be checked again before a request is answered. */
  due(staleMs: number): boolean;
  /** The check under way (or a new one) and its outcome, recorded as the data's freshness. */
  start(): Promise<void>;
  /**
   * What a request waits for: a due check, for at most `waitMs` (not at all once a check has
   * failed); the data held answers when the check fails or takes longer. Without data held it
   * waits the same bound and then rejects with an UnavailableError (503).
   */
  beforeRequest(staleMs: number, waitMs: number, what: string): Promise<void>;
  /** True when the data held could not be confirmed current: the last check failed, or one is late. */
  stale(waitMs: number): boolean;
  /** Reports no failure from now on (a check under way when its store stops fails on the closed database at shutdown). */
  stop(): void;
};

/**
 * The freshness bookkeeping shared by the in-memory stores (token catalogue, price histories):
 * one check at a time, the time of the last one, and whether it failed. `load` is the store's
 * check-and-apply; `held` tells whether the store has data to answer from.
 */
export function createHeldDataGate(load: () => Promise<void>, held: () => boolean, onError?: (error: unknown) => void): HeldDataGate {
  let checkedAt = 0;
  let failedAt: number | undefined;
  let stopped = false;
  /** The check under way; `late` once a request stopped waiting for it (its answer is stale). */
  let inFlight: { done: Promise<void>; startedAt: number; late: boolean } | undefined;

  function start(): Promise<void> {
    if (!inFlight) {
      const done = load().then(
        () => {
          checkedAt = Date.now();
          failedAt = undefined;
        },
        (error: unknown) => {
          checkedAt = Date.now();
          // One report per outage, not one per request or poll.
          if (failedAt === undefined && !stopped) onError?.(error);
          failedAt ??= checkedAt;
          throw error;
        },
      );
      inFlight = { done: done.finally(() => (inFlight = undefined)), startedAt: Date.now(), late: false };
      inFlight.done.catch(() => {});
    }
    return inFlight.done;
  }

  const due = (staleMs: number) => !held() || Date.now() - checkedAt >= (failedAt === undefined ? staleMs : Math.max(staleMs, STALE_RECHECK_MS));

  async function beforeRequest(staleMs: number, waitMs: number, what: string): Promise<void> {
    if (!due(staleMs)) return;
    const check = start();
    const flight = inFlight!;
    // A check is waited for at most waitMs from its start, however many requests join it.
    const remaining = Math.max(0, waitMs - (Date.now() - flight.startedAt));
    if (held()) {
      // A request that stopped waiting answers stale, whatever the wall clock reads when it is sent
      // (the timer runs on the monotonic clock and may end a millisecond before Date.now() says so;
      // the wall clock may also be set back).
      if (failedAt === undefined && (await waitAtMost(check.catch(() => {}), remaining)) === 'late') flight.late = true;
      return;
    }
    let outcome: 'done' | 'late';
    try {
      outcome = await waitAtMost(check, remaining);
    } catch (error) {
      if (error instanceof UnavailableError) throw error;
      // Named by the dependency that failed, never by what it said (an address): that is logged.
      const database = isDatabaseFault(error);
      const why = database ? 'the database does not answer' : 'its source failed (see the server log)';
      throw new UnavailableError(`The ${what} could not be loaded: ${why}.`, 5, { cause: error, ...(database ? { dependency: 'database' as const } : {}) });
    }
    if (outcome === 'late' && !held()) throw new UnavailableError(`The ${what} is still loading: the database has not answered yet.`, 1, { dependency: 'database' });
  }

  return {
    due,
    start,
    beforeRequest,
    stop: () => void (stopped = true),
    stale: (waitMs) => held() && (failedAt !== undefined || (inFlight !== undefined && (inFlight.late || Date.now() - inFlight.startedAt >= waitMs))),
  };
}

/** Settles with `work` ('done', or its rejection), or with 'late' after `ms` (never when ms is Infinity). */
function waitAtMost(work: Promise<unknown>, ms: number): Promise<'done' | 'late'> {
  if (!Number.isFinite(ms)) return work.then(() => 'done' as const);
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(() => 'done' as const).finally(() => clearTimeout(timer)),
    new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms))),
  ]);
}
