/**
 * When to ask for the next head while following it, given that blocks come about every
 * `intervalMs` (INDEXER_POLL_INTERVAL_MS, the network's block time):
 * - after a step that found new blocks, the next poll is one interval after that step began, less
 *   a sixteenth of one: the polls move earlier each block until one comes before its block;
 * - a poll that finds nothing is tried again an eighth of an interval later, twice, then after
 *   twice as long each time, up to the interval (an idle chain is asked once an interval).
 * The retry is longer than the drift, so on a chain with regular blocks the polls settle just
 * after each block: a block is found within an eighth of an interval of its arrival, at the cost
 * of an empty poll (one `eth_blockNumber`) about every two to three blocks. Waiting a whole
 * interval after each step instead found a block up to an interval plus a step late, and let two
 * more blocks come before it was stored.
 */
export type FollowPacer = {
  /** How long to wait before the next step, after a step that ended caught up. */
  delayAfter(step: { startedAt: number; foundBlocks: boolean }, now: number): number;
};

export function createFollowPacer(intervalMs: number): FollowPacer {
  const eighth = Math.max(1, Math.round(intervalMs / 8));
  const drift = Math.max(1, Math.round(intervalMs / 16));
  let emptyPolls = 0;
  return {
    delayAfter({ startedAt, foundBlocks }, now) {
      if (foundBlocks) {
        emptyPolls = 0;
        return Math.max(0, startedAt + intervalMs - drift - now);
      }
      emptyPolls++;
      return Math.min(intervalMs, eighth * 2 ** Math.max(0, emptyPolls - 2));
    },
  };
}
