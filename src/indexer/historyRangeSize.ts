// How many blocks the next history range covers. A range is written in one transaction, and its
// statements run within the database's statement timeout (and its idle-in-transaction timeout):
// on a dense chain or a slow database one range of the configured size can exceed it every time it
// is tried. So a range that failed for the database's sake is tried again at half the size (down
// to `minBlocks`). The size doubles back towards the configured one after a range whose write
// took under a quarter of the timeout, or else after `probeAfter` ranges in a row stored at the
// smaller size (a database fault may have been passing: a dense chain's writes never take a quarter
// of the timeout, and halved ranges would cost their per-range work twice for the rest of the
// fill). Each fault after such a probe doubles the number of ranges the next probe waits for.
import { isDatabaseFault } from '../db/index.ts';

// The server ended the session: the transaction waited on the indexer longer than the timeout.
const IDLE_IN_TRANSACTION_TIMEOUT = '25P03';

export type HistoryRangeSize = {
  /** Blocks of the next range. */
  blocks(): number;
  /** A range of `blocks()` failed with `error`. */
  failed(error: unknown): void;
  /** A range of `blocks()` was stored; its write transaction took `writeMs`. */
  stored(writeMs: number): void;
};

export type HistoryRangeSizeOptions = { maxBlocks: number; writeTimeoutMs: number; minBlocks?: number; probeAfter?: number };

/** The most ranges a probe waits for, however often probes failed. */
const MAX_PROBE_AFTER = 64;

export function createHistoryRangeSize(options: HistoryRangeSizeOptions): HistoryRangeSize {
  const max = Math.max(1, options.maxBlocks);
  const min = Math.min(max, options.minBlocks ?? 1);
  let blocks = max;
  let probeAfter = Math.max(1, options.probeAfter ?? 4);
  let storedInARow = 0;
  let probing = false;
  const grow = () => {
    blocks = Math.min(max, blocks * 2);
    storedInARow = 0;
  };
  return {
    blocks: () => blocks,
    failed(error) {
      if (!isDatabaseFault(error) && (error as { code?: unknown } | null)?.code !== IDLE_IN_TRANSACTION_TIMEOUT) return;
      if (probing) probeAfter = Math.min(MAX_PROBE_AFTER, probeAfter * 2);
      probing = false;
      storedInARow = 0;
      blocks = Math.max(min, Math.floor(blocks / 2));
    },
    stored(writeMs) {
      probing = false;
      if (blocks >= max) return;
      storedInARow++;
      if (writeMs < options.writeTimeoutMs / 4) grow();
      else if (storedInARow >= probeAfter) {
        grow();
        probing = true;
      }
    },
  };
}
