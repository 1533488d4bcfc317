// Long stretches of JavaScript inside a step (replaying a history range, pricing every token,
// rebuilding every row) give the event loop back every so often, so that timers and sockets of the
// same process run beside them: the writer lock's heartbeat (a server-side session ends after
// 5 missed ones) and the HTTP server of `npm run index`.

/** How long a stretch may run before it yields (a tenth of the writer lock's default heartbeat). */
export const YIELD_AFTER_MS = 100;

/** A function to await between units of work: resolves at once unless `ms` passed since the last yield. */
export function yieldEvery(ms: number = YIELD_AFTER_MS): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < ms) return undefined;
    return new Promise<void>((resolve) => setImmediate(() => {
      last = performance.now();
      resolve();
    }));
  };
}

/** Rows built per slice by buildInSlices. */
const SLICE = 500;

/**
 * Builds rows slice by slice, giving the event loop back between slices: statements already sent
 * on a connection are followed by the next one it was sent as soon as each finishes, not after the
 * whole build (a database connection starts its next statement from an I/O callback).
 */
export async function buildInSlices<T, R>(items: readonly T[], build: (slice: readonly T[]) => R[]): Promise<R[]> {
  const rows: R[] = [];
  for (let i = 0; i < items.length; i += SLICE) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    rows.push(...build(items.slice(i, i + SLICE)));
  }
  return rows;
}
