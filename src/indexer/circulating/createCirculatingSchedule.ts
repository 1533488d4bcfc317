// Which tokens a batch reads the circulating supply of: those deferred by an earlier batch's bound,
// those the batch touched, then the next ones of the periodic sweep over every token, until the
// batch's call budget is spent (one token at least, so a token never starves).
export type CirculatingSchedule = {
  /** The tokens to read now; `cost` is the eth_calls a token's read takes. */
  pick(touched: Iterable<string>, all: () => Iterable<string>, cost: (token: string) => number): string[];
  /** Read these at the next batch (a rollback orphaned their figures). */
  defer(tokens: Iterable<string>): void;
  /** Counts token reads that failed (kept their previous figure). */
  failed(count: number): void;
  stats(): { failures: number; sweeping: number };
};

export type CirculatingScheduleOptions = {
  /** A new sweep over every token starts this long (wall clock) after the previous one started, once it is done. */
  refreshMs: number;
  maxCalls: number;
  now?: () => number;
};

export function createCirculatingSchedule(options: CirculatingScheduleOptions): CirculatingSchedule {
  const now = options.now ?? Date.now;
  const pending = new Set<string>();
  let sweep = new Set<string>();
  // The first batch after a start sweeps every token: figures stored before a restart are refreshed.
  let nextSweepAt = -Infinity;
  let failures = 0;
  return {
    pick(touched, all, cost) {
      if (sweep.size === 0 && now() >= nextSweepAt) {
        sweep = new Set(all());
        nextSweepAt = now() + options.refreshMs;
      }
      const chosen: string[] = [];
      const taken = new Set<string>();
      let calls = 0;
      const take = (token: string): boolean => {
        if (taken.has(token)) return true;
        const c = cost(token);
        if (chosen.length > 0 && calls + c > options.maxCalls) return false;
        calls += c;
        chosen.push(token);
        taken.add(token);
        return true;
      };
      const wanted = [...pending, ...touched];
      pending.clear();
      for (const token of wanted) if (!take(token)) pending.add(token);
      for (const token of sweep) {
        if (!take(token)) break;
        sweep.delete(token);
      }
      for (const token of taken) sweep.delete(token);
      return chosen;
    },
    defer(tokens) {
      for (const token of tokens) pending.add(token);
    },
    failed(count) {
      failures += count;
    },
    stats: () => ({ failures, sweeping: sweep.size }),
  };
}
