// Seeded, reproducible trading history: blocks every 7.5-12.5 minutes of chain time over `hours`,
// ending shortly before the wall clock, so "last 24 h" views have real data; with `days`, a quiet
// market in coarser blocks (every 5-8 hours) before those hours, so windows up to 7 days have data.
import type { DemoChain } from './chain.ts';
import { createDemoClient } from './client.ts';
import type { DemoDeployment } from './deploy.ts';
import { createMarket, tradeBlock, type MarketCounters, type StablecoinDepeg } from './market.ts';
import { createPrng } from './prng.ts';

export interface SimulateHistoryOptions {
  seed?: number;
  hours?: number;
  /** Chain-time gap between blocks, in seconds. Default [450, 750]: 125 blocks a day, each a few swaps. */
  blockIntervalSec?: [number, number];
  /** DAI's short depeg (market.ts, depegFactor), starting this many hours before the history ends; null: none. Default DEFAULT_DEPEG_HOURS_BEFORE_END. */
  depegHoursBeforeEnd?: number | null;
  /**
   * Days the history covers in all. The part before the last `hours` has coarser blocks of a quiet
   * market: the reference prices start moving (trends, volatility) only with the last `hours`, so
   * the recent market is the one the trends are sized for; before, traders hold the pools at the
   * starting reference against retail noise, and burns, transfers and liquidity changes go on.
   * Default 0 (none).
   */
  days?: number;
  /** Chain-time gap between the blocks before the last `hours`, in seconds. Default [18000, 28800]. */
  coarseIntervalSec?: [number, number];
  /** When the history ends (unix seconds; default now): a snapshot made at another time. */
  endAt?: number;
}

export interface SimulationReport extends MarketCounters {
  seed: number;
  swaps: number;
  fromBlock: number;
  toBlock: number;
  fromTimestamp: number;
  toTimestamp: number;
  /** The stablecoin depeg scheduled in the history (live trading continues it). */
  depeg: StablecoinDepeg | null;
  /** Start of the last `hours` (fine spacing); fromTimestamp when there is no coarser part. */
  recentFromTimestamp: number;
  /** True when the chain's genesis was too recent to back-date the history (it then runs ahead of the wall clock). */
  endsInFuture: boolean;
  durationMs: number;
}

export const DEFAULT_SEED = 59144;
/** Days the default demo's history covers: 7-day price changes have data. */
export const DEFAULT_HISTORY_DAYS = 8;
/** Hours of fine blocks the default history ends with (a snapshot caught up keeps 24 h of them). */
export const DEFAULT_HISTORY_HOURS = 26;
/**
 * The default depeg starts 3 hours before the history ends: the trough (1.5 h in) is in the last
 * 24 h, and at the end DAI's reference is still 2.4 % under the peg (0.976), more than a retail
 * swap moves its pool (at most 5 per mille of a reserve: about 1 %). The 24 h variation then shows
 * the depeg whatever the start's catch-up block trades; at 8 hours (0.994) one swap could hide it.
 */
export const DEFAULT_DEPEG_HOURS_BEFORE_END = 3;
/** Mixed into the seed for the quiet part's own PRNG. */
const QUIET_SEED = 0x71e7;

export async function simulateHistory(chain: DemoChain, deployment: DemoDeployment, options: SimulateHistoryOptions = {}): Promise<SimulationReport> {
  const started = performance.now();
  const seed = options.seed ?? DEFAULT_SEED;
  const hours = options.hours ?? 26;
  const [minGap, maxGap] = options.blockIntervalSec ?? [450, 750];
  const [minCoarseGap, maxCoarseGap] = options.coarseIntervalSec ?? [18000, 28800];
  const coarseSec = Math.max(0, Math.round((options.days ?? 0) * 86_400) - hours * 3600);
  const c = await createDemoClient(chain);
  const rng = createPrng(seed);
  const latest = await c.latestBlock();
  const nowSec = options.endAt ?? Math.floor(Date.now() / 1000);
  // Back-date to now - days (or hours) when the chain allows it (startDemo starts the chain in the past).
  const startTs = Math.max(latest.timestamp + minGap, nowSec - hours * 3600 - coarseSec);
  const endTs = startTs + hours * 3600 + coarseSec;
  const fineFrom = endTs - hours * 3600;
  const depegAt = options.depegHoursBeforeEnd === undefined ? DEFAULT_DEPEG_HOURS_BEFORE_END : options.depegHoursBeforeEnd;
  const dai = deployment.tokens.find((t) => t.symbol === 'DAI')?.address;
  const depeg = depegAt !== null && dai ? { token: dai, start: endTs - depegAt * 3600, trough: 0.965 } : null;
  // The market's clock starts at the last `hours`: no reference move in the quiet part before.
  // That part draws from its own PRNG: the last `hours` make the same random draws as without it.
  const quietRng = createPrng(seed ^ QUIET_SEED);
  const market = await createMarket(c, deployment, coarseSec > 0 ? quietRng : rng, fineFrom, depeg, { onlyTrader: true });
  await c.setAutomine(false);
  try {
    for (let t = startTs; t < fineFrom; t += quietRng.int(minCoarseGap, maxCoarseGap)) await tradeBlock(market, t);
    market.rng = rng;
    for (let t = fineFrom; t <= endTs; t += rng.int(minGap, maxGap)) await tradeBlock(market, t);
  } finally {
    await c.setAutomine(true);
  }
  const end = await c.latestBlock();
  const counters = market.counters;
  return {
    seed,
    ...counters,
    swaps: counters.swapsV2 + counters.swapsV3 + counters.swapsPancakeV3 + counters.swapsV4,
    fromBlock: latest.number + 1,
    toBlock: end.number,
    fromTimestamp: startTs,
    toTimestamp: end.timestamp,
    depeg,
    recentFromTimestamp: fineFrom,
    endsInFuture: end.timestamp > Math.floor(Date.now() / 1000),
    durationMs: Math.round(performance.now() - started),
  };
}
