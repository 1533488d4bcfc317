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
