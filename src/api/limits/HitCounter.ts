/** A fixed counting window of the client rate limit. */
export type CountWindow = { name: string; windowMs: number };

/** One window's count after a hit: hits so far in the window and milliseconds until it resets. */
export type WindowCount = { hits: number; resetMs: number };

/**
 * Counts a client's requests in fixed windows: one hit adds one to every window and returns the
 * counts in the windows' order. Implementations: in this process, or shared through Redis.
 */
export type HitCounter = {
  hit(key: string, windows: readonly CountWindow[]): Promise<WindowCount[]>;
  /** Stops timers and probes; the counter is not used afterwards. */
  stop?(): void;
};
