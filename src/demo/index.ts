// Entry point for the embedded demo network: chain + deployment + back-dated history (+ live trades).
import { startDemoChain, type DemoChain } from './chain.ts';
import { deployDemo, type DemoDeployment } from './deploy.ts';
import { startLiveTrading } from './live.ts';
import { DEFAULT_HISTORY_DAYS, DEFAULT_HISTORY_HOURS, DEFAULT_SEED, simulateHistory, type SimulationReport } from './simulate.ts';

export type { DemoChain, Eip1193Provider } from './chain.ts';
export type { DemoDeployment, DemoPoolInfo, DemoTokenInfo, DemoAccounts } from './deploy.ts';
export type { SimulationReport } from './simulate.ts';
export { startDemoChain } from './chain.ts';
export { deployDemo } from './deploy.ts';
export { simulateHistory } from './simulate.ts';
export { startLiveTrading } from './live.ts';

export interface DemoOptions {
  port?: number;
  host?: string;
  chainId?: number;
  seed?: number;
  /** Hours of back-dated history (default 26). */
  hours?: number;
  /**
   * Days the back-dated history covers in all, the part before the last `hours` a quiet market in
   * coarser blocks (see SimulateHistoryOptions.days; default DEFAULT_HISTORY_DAYS with the default
   * hours; a caller that asks for `hours` gets just those unless it asks for `days` too).
   */
  days?: number;
  /** Chain-time gap between the coarser blocks, in seconds (see SimulateHistoryOptions). */
  coarseIntervalSec?: [number, number];
  /** Keep trading every few seconds (default false). */
  live?: boolean;
  liveIntervalMs?: number;
}

export interface Demo {
  chain: DemoChain;
  deployment: DemoDeployment;
  history: SimulationReport;
  timings: { chainMs: number; deployMs: number; historyMs: number };
  stop(): Promise<void>;
}

export { DEFAULT_HISTORY_DAYS } from './simulate.ts';

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const hours = options.hours ?? DEFAULT_HISTORY_HOURS;
  const days = options.days ?? (options.hours === undefined ? DEFAULT_HISTORY_DAYS : 0);
  const seed = options.seed ?? DEFAULT_SEED;
  // Genesis one hour before the history window so the whole history can be back-dated.
  const chain = await startDemoChain({
    port: options.port,
    host: options.host,
    chainId: options.chainId,
    initialDate: new Date(Date.now() - (Math.max(hours, days * 24) + 1) * 3600 * 1000),
  });
  try {
    const t0 = performance.now();
    const deployment = await deployDemo(chain);
    const deployMs = Math.round(performance.now() - t0);
    const history = await simulateHistory(chain, deployment, { seed, hours, days, coarseIntervalSec: options.coarseIntervalSec });
    const live = options.live ? await startLiveTrading(chain, deployment, { seed, intervalMs: options.liveIntervalMs, depeg: history.depeg }) : undefined;
    return {
      chain,
      deployment,
      history,
      timings: { chainMs: chain.startupMs, deployMs, historyMs: history.durationMs },
      async stop() {
        await live?.stop();
        await chain.stop();
      },
    };
  } catch (err) {
    await chain.stop();
    throw err;
  }
}
