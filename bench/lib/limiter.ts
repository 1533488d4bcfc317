// The rate limiter's own cost: `GET /tokens` (hot) on fresh service processes started the same
// way back to back, the limiter off (RATE_LIMIT_PER_*=0) and on with limits too high to ever
// trigger. Off and on alternate as off, on, on, off, … (ABBA), so a linear drift of the
// machine's load hits both sides alike; the cost is reported as the ratio on ÷ off.
import type { LoadResult } from './load.ts';

export type LimiterSide = 'off' | 'on';

/** The service environment of each side (merged over the run's common settings). */
export const limiterEnv: Record<LimiterSide, Record<string, string>> = {
  off: { RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0' },
  on: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_PER_MINUTE: '60000000' },
};

/** off, on, on, off, off, on, … : `rounds` pairs whose order alternates (ABBA). */
export function limiterSchedule(rounds: number): LimiterSide[] {
  const out: LimiterSide[] = [];
  for (let r = 0; r < rounds; r++) out.push(...(r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)));
  return out;
}

/** One side over its runs (of equal length): mean req/s, median p50, worst p99 and max. */
export function combineRuns(runs: readonly LoadResult[]): LoadResult {
  if (runs.length === 0) throw new Error('no runs to combine');
  const sum = (f: (r: LoadResult) => number) => runs.reduce((s, r) => s + f(r), 0);
  const p50s = runs.map((r) => r.p50Ms).sort((a, b) => a - b);
  const median = (p50s[Math.floor((p50s.length - 1) / 2)]! + p50s[Math.ceil((p50s.length - 1) / 2)]!) / 2;
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  const requests = sum((r) => r.requests);
  return {
    requests,
    rps: Math.round((sum((r) => r.rps) / runs.length) * 10) / 10,
    p50Ms: Math.round(median * 100) / 100,
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    maxMs: Math.max(...runs.map((r) => r.maxMs)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    bytesPerResponse: requests ? Math.round(sum((r) => r.bytesPerResponse * r.requests) / requests) : 0,
    statuses,
  };
}

export type LimiterCost = {
  database: string;
  /** Runs in the order they ran. */
  runs: { side: LimiterSide; rps: number; p50Ms: number; p99Ms: number }[];
  off: { rps: number; p50Ms: number; p99Ms: number };
  on: { rps: number; p50Ms: number; p99Ms: number };
  /** req/s with the limiter on ÷ req/s with it off (1 = free, 0.8 = costs 20 % of throughput). */
  rpsRatio: number;
  /** The same ratio for each adjacent off/on pair, to show its spread. */
  pairRatios: number[];
};

export function limiterCost(database: string, runs: readonly { side: LimiterSide; result: LoadResult }[]): LimiterCost {
  const side = (s: LimiterSide) => combineRuns(runs.filter((r) => r.side === s).map((r) => r.result));
  const off = side('off');
  const on = side('on');
  const pairRatios: number[] = [];
  for (let i = 0; i + 1 < runs.length; i += 2) {
    const a = runs[i]!;
    const b = runs[i + 1]!;
    const [o, n] = a.side === 'off' ? [a, b] : [b, a];
    if (o.side === 'off' && n.side === 'on' && o.result.rps > 0) pairRatios.push(Math.round((n.result.rps / o.result.rps) * 1000) / 1000);
  }
  const pick = (r: LoadResult) => ({ rps: r.rps, p50Ms: r.p50Ms, p99Ms: r.p99Ms });
  return {
    database,
    runs: runs.map((r) => ({ side: r.side, ...pick(r.result) })),
    off: pick(off),
    on: pick(on),
    rpsRatio: off.rps > 0 ? Math.round((on.rps / off.rps) * 1000) / 1000 : 0,
    pairRatios,
  };
}
