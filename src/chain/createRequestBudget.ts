// One request budget per process, shared by everything that talks to the node (indexer, contract
// checks, supply reads, POST /rpc): at most `perSecond` requests in any window of a second as the
// provider counts them (each item of a JSON-RPC batch is one), and at most `maxConcurrency` HTTP
// requests in flight. A request holds its slot until its answer has come and a second has passed
// since: the provider received it at some moment before its answer, so however the network delays
// requests, no second at the provider sees more than `perSecond` of them. A refusal for rate (429)
// stops every sender until the provider's Retry-After (or a doubling backoff); with a configured
// rate it also lowers the rate, which a second without refusals raises again. Interactive requests
// (a user waiting) are granted before background ones (the indexer), and those before idle ones
// (work that may take whatever the others leave: the contract checks). Idle grants leave a fifth
// of each second's slots and of the connections free, so that a request of the indexer or a user
// finds one at once instead of waiting out a second the checks filled.

export type RequestPriority = 'interactive' | 'background' | 'idle';

/** Ends a grant: the answer came (`throttled` when it was a refusal for rate, with its Retry-After). */
export type Release = (outcome?: { throttled: boolean; retryAfterMs?: number | null }) => void;

export type BudgetStats = {
  /** Items granted (a batch counts each of its items). */
  granted: number;
  /** Grants that had to wait, and how long they waited in all. */
  waited: number;
  waitedMs: number;
  /** Refusals for rate reported by the senders. */
  throttled: number;
  /** The rate now in force (requests/s); null when unlimited. */
  rate: number | null;
  inFlight: number;
  queued: number;
};

export type RequestBudget = {
  /**
   * Waits until `items` requests may be sent as one HTTP request; resolves with its release, or
   * with null when `deadline` (performance.now() time) passes first.
   */
  acquire(items: number, options?: { priority?: RequestPriority; deadline?: number }): Promise<Release | null>;
  /** The most items one grant of `priority` should carry now (a batch larger than this is split). */
  maxItems(priority?: RequestPriority): number;
  stats(): BudgetStats;
};

export type RequestBudgetOptions = {
  /** Requests per second; 0 = no rate limit. */
  perSecond: number;
  /** HTTP requests in flight at once; 0 = no limit. */
  maxConcurrency?: number;
  now?: () => number;
};

/**
 * The share of the rate and of the connections idle grants never take: following the head needs
 * under 5 requests/s of a provider's 25 (docs/indexer.md, "Contract checks": the idle reserve).
 */
export const IDLE_RESERVE_SHARE = 0.2;

/** What idle grants leave free of `limit` (none of a limit of 1: idle work would never run). */
export const idleReserve = (limit: number): number => (limit === Number.POSITIVE_INFINITY || limit < 2 ? 0 : Math.max(1, Math.floor(limit * IDLE_RESERVE_SHARE)));

/** A slot is free again this long after its answer (a second, and a margin for timer granularity). */
const WINDOW_MS = 1005;
const MAX_BACKOFF_MS = 30_000;

type Waiter = { items: number; deadline: number; queuedAt: number; resolve: (release: Release | null) => void };

export function createRequestBudget(options: RequestBudgetOptions): RequestBudget {
  const now = options.now ?? (() => performance.now());
  const limit = options.perSecond > 0 ? options.perSecond : Number.POSITIVE_INFINITY;
  const maxConcurrency = options.maxConcurrency && options.maxConcurrency > 0 ? options.maxConcurrency : Number.POSITIVE_INFINITY;
  let rate = limit;
  const answered: number[] = []; // answer times, one per item, ascending from `head`
  let head = 0;
  let inFlight = 0; // HTTP requests
  let itemsInFlight = 0;
  let pausedUntil = 0;
  let consecutiveThrottles = 0;
  let lastRateChange = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  const queues: Record<RequestPriority, Waiter[]> = { interactive: [], background: [], idle: [] };
  const stats = { granted: 0, waited: 0, waitedMs: 0, throttled: 0 };

  const capacity = () => (rate === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(rate)));

  /** Items answered within the last window (their slots are not free yet). */
  function answeredInWindow(at: number): number {
    while (head < answered.length && answered[head]! <= at - WINDOW_MS) head++;
    if (head > 4096) {
      answered.splice(0, head);
      head = 0;
    }
    return answered.length - head;
  }

  /**
   * Milliseconds until `items` may go; Infinity while the concurrency limit holds it (a release
   * pumps). An idle grant sees the limits less what it leaves free (idleReserve).
   */
  function delayFor(items: number, at: number, priority: RequestPriority): number {
    if (at < pausedUntil) return pausedUntil - at;
    const idle = priority === 'idle';
    if (inFlight >= maxConcurrency - (idle ? idleReserve(maxConcurrency) : 0)) return Number.POSITIVE_INFINITY;
    const whole = capacity();
    if (whole === Number.POSITIVE_INFINITY) return 0;
    const cap = whole - (idle ? idleReserve(whole) : 0);
    const recent = answeredInWindow(at);
    // A grant larger than the rate (the rate fell after it was split) goes alone in an empty window.
    const need = Math.min(items, cap);
    const over = itemsInFlight + recent + need - cap;
    if (over <= 0) return 0;
    // Slots of requests still in flight free only after their answer: a release pumps again.
    if (over > recent) return Number.POSITIVE_INFINITY;
    return answered[head + over - 1]! + WINDOW_MS - at;
  }

  function grant(waiter: Waiter, at: number) {
    inFlight++;
    itemsInFlight += waiter.items;
    stats.granted += waiter.items;
    if (at > waiter.queuedAt) {
      stats.waited++;
      stats.waitedMs += at - waiter.queuedAt;
    }
    let released = false;
    waiter.resolve((outcome) => {
      if (released) return;
      released = true;
      inFlight--;
      itemsInFlight -= waiter.items;
      const done = now();
      answeredInWindow(done); // prunes what left the window
      for (let i = 0; i < waiter.items; i++) answered.push(done);
      if (outcome?.throttled) throttled(outcome.retryAfterMs ?? null);
      else succeeded();
      pump();
    });
  }

  function throttled(retryAfterMs: number | null) {
    const at = now();
    stats.throttled++;
    consecutiveThrottles++;
    const backoff = retryAfterMs ?? Math.min(MAX_BACKOFF_MS, 500 * 2 ** (consecutiveThrottles - 1));
    pausedUntil = Math.max(pausedUntil, at + backoff);
    // Several refusals of requests sent together lower the rate once.
    // A configured rate the provider refuses steps down (several refusals of requests sent
    // together count once); an unlimited budget only pauses.
    if (rate !== Number.POSITIVE_INFINITY && at - lastRateChange > WINDOW_MS) {
      rate = Math.max(1, Math.floor(rate * 0.7));
      lastRateChange = at;
    }
  }

  function succeeded() {
    consecutiveThrottles = 0;
    const at = now();
    if (rate < limit && at - lastRateChange > WINDOW_MS) {
      rate = Math.min(limit, rate + Math.max(1, Math.floor(rate * 0.1)));
      lastRateChange = at;
    }
  }

  function pump() {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const at = now();
    let wakeAt = Number.POSITIVE_INFINITY;
    // Waiters whose deadline passed leave the queue with null.
    for (const queue of Object.values(queues)) {
      for (let i = queue.length - 1; i >= 0; i--) {
        const w = queue[i]!;
        if (w.deadline <= at) {
          queue.splice(i, 1);
          w.resolve(null);
        } else wakeAt = Math.min(wakeAt, w.deadline);
      }
    }
    for (;;) {
      const priority: RequestPriority = queues.interactive.length > 0 ? 'interactive' : queues.background.length > 0 ? 'background' : 'idle';
      const queue = queues[priority];
      const next = queue[0];
      if (!next) break;
      const delay = delayFor(next.items, at, priority);
      if (delay > 0) {
        wakeAt = Math.min(wakeAt, at + delay);
        break;
      }
      queue.shift();
      grant(next, at);
    }
    if (wakeAt !== Number.POSITIVE_INFINITY) {
      timer = setTimeout(pump, Math.max(1, Math.ceil(wakeAt - at)));
    }
  }

  return {
    acquire(items, acquireOptions = {}) {
      return new Promise<Release | null>((resolve) => {
        const at = now();
        queues[acquireOptions.priority ?? 'background'].push({
          items: Math.max(1, items), deadline: acquireOptions.deadline ?? Number.POSITIVE_INFINITY, queuedAt: at, resolve,
        });
        pump();
      });
    },
    maxItems: (priority = 'background') => {
      const whole = capacity();
      return priority === 'idle' ? whole - idleReserve(whole) : whole;
    },
    stats: () => ({
      ...stats,
      rate: rate === Number.POSITIVE_INFINITY ? null : rate,
      inFlight,
      queued: queues.interactive.length + queues.background.length + queues.idle.length,
    }),
  };
}

/** A budget that never waits (tests, tools, the embedded demo's own node). */
export const unlimitedBudget = (): RequestBudget => createRequestBudget({ perSecond: 0 });
