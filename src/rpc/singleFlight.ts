// Concurrent identical calls share one in-flight promise: a burst of lookups for the same
// transaction costs the upstream node a single request.
export type SingleFlight = <T>(key: string, run: () => Promise<T>) => Promise<T>;

export function singleFlight(): SingleFlight {
  const inflight = new Map<string, Promise<unknown>>();
  return <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const existing = inflight.get(key);
    if (existing) return existing as Promise<T>;
    const p = run().finally(() => inflight.delete(key));
    inflight.set(key, p);
    return p;
  };
}
