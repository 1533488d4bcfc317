// Retention (deleting rows behind their horizons) and the pruning of pool-state history run in the
// batch that crosses a multiple of their period. A batch that reprices much of the catalogue (a
// USD feed round: every token quoted against the wrapped native token) is already the longest step
// of following; when one of them falls due there, it runs in the next batch instead, once: the next
// batch runs it whatever it reprices.

/** Price changes above which a batch leaves its maintenance to the next one. */
export const MAINTENANCE_DEFERRED_ABOVE = 1000;

export type Maintenance = { retention: boolean; prune: boolean };

/** What runs in the batch `from`..`to`, and what it leaves to the next (the state keeps it). */
export function maintenanceDue(
  batch: { from: number; to: number; priceChanges: number },
  periods: { retentionEveryBlocks: number; pruneEveryBlocks: number },
  left: Maintenance | undefined,
): { run: Maintenance; leave: Maintenance | undefined } {
  const crosses = (every: number) => Math.floor((batch.from - 1) / every) !== Math.floor(batch.to / every);
  const due = {
    retention: crosses(periods.retentionEveryBlocks) || (left?.retention ?? false),
    prune: crosses(periods.pruneEveryBlocks) || (left?.prune ?? false),
  };
  const none = { retention: false, prune: false };
  if ((due.retention || due.prune) && left === undefined && batch.priceChanges > MAINTENANCE_DEFERRED_ABOVE) return { run: none, leave: due };
  return { run: due, leave: undefined };
}
