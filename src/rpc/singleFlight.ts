// Concurrent identical calls share one in-flight promise: a burst of lookups for the same
// transaction costs the upstream node a single request. A call is shared only with requests that
// arrive within `joinWindowMs` of its start: one that began during a partition and is still
// waiting for its timeout is not handed to a request arriving after the node came back (which
// got `Upstream node timeout` for seconds after recovery); that request starts a call of its own.
export type SingleFlight = <T>(key: string, run: () => Promise<T>) => Promise<T>;

/** How long after its start an upstream call is still shared with new requests, by default. */
export const DEFAULT_JOIN_WINDOW_MS = 250;

export function singleFlight(options: { joinWindowMs?: number; now?: () => number } = {}): SingleFlight {
  const joinWindowMs = options.joinWindowMs ?? DEFAULT_JOIN_WINDOW_MS;
  const now = options.now ?? Date.now;
  const inflight = new Map<string, { promise: Promise<unknown>; startedAt: number }>();
  return <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const existing = inflight.get(key);
    if (existing && now() - existing.startedAt <= joinWindowMs) return existing.promise as Promise<T>;
    const entry = { promise: undefined as unknown as Promise<T>, startedAt: now() };
    // The entry is removed when its call settles, unless a newer call has taken its key.
    entry.promise = run().finally(() => {
      if (inflight.get(key) === entry) inflight.delete(key);
    });
    inflight.set(key, entry);
    return entry.promise;
  };
}
