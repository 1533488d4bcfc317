// Keeps the demo market moving while the service runs: one block of trades every intervalMs,
// stamped with the chain clock (which follows wall time once the history has caught up).
import type { DemoChain } from './chain.ts';
import { createDemoClient } from './client.ts';
import type { DemoDeployment } from './deploy.ts';
import { createMarket, tradeBlock, type MarketCounters, type StablecoinDepeg } from './market.ts';
import { createPrng } from './prng.ts';

export interface LiveTrading {
  counters: MarketCounters;
  stop(): Promise<void>;
}

export async function startLiveTrading(
  chain: DemoChain,
  deployment: DemoDeployment,
  options: { intervalMs?: number; seed?: number; onError?: (err: unknown) => void; depeg?: StablecoinDepeg | null } = {},
): Promise<LiveTrading> {
  const intervalMs = options.intervalMs ?? 3000;
  const c = await createDemoClient(chain);
  const market = await createMarket(c, deployment, createPrng((options.seed ?? 1) ^ 0x5eed), Math.floor(Date.now() / 1000), options.depeg ?? null);
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = async () => {
    // Automine goes off only while this block is assembled so its trades land in one block.
    await c.setAutomine(false);
    try {
      await tradeBlock(market, undefined);
    } finally {
      await c.setAutomine(true);
    }
  };
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(tick).catch((err: unknown) => (options.onError ?? ((e) => console.error('demo live trading:', e)))(err));
  }, intervalMs);
  timer.unref();
  return {
    counters: market.counters,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
