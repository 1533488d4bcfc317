// Brings a demo chain loaded from a snapshot up to the wall clock: the market trades on in the
// history's fine spacing (a block every 7.5-12.5 minutes of chain time) from the snapshot's head
// to now, and a last block is mined at now, so the head is the wall clock's and the last 24 h
// have the same density of blocks as on a fresh start. Live trading then continues from there.
import type { DemoChain } from './chain.ts';
import { createDemoClient } from './client.ts';
import type { DemoDeployment } from './deploy.ts';
import { createMarket, tradeBlock, type StablecoinDepeg } from './market.ts';
import { createPrng } from './prng.ts';

export interface CatchUpReport {
  blocks: number;
  swaps: number;
  fromTimestamp: number;
  toBlock: number;
  toTimestamp: number;
  durationMs: number;
}

export async function catchUpToNow(
  chain: DemoChain,
  deployment: DemoDeployment,
  options: { seed: number; depeg: StablecoinDepeg | null; blockIntervalSec?: [number, number]; now?: () => number },
): Promise<CatchUpReport> {
  const started = performance.now();
  const [minGap, maxGap] = options.blockIntervalSec ?? [450, 750];
  const nowSec = () => Math.floor((options.now?.() ?? Date.now()) / 1000);
  const c = await createDemoClient(chain);
  const head = await c.latestBlock();
  // Its own draws for every head: two starts from one snapshot at different times trade alike.
  const rng = createPrng((options.seed ^ 0xc47c) + head.timestamp);
  const market = await createMarket(c, deployment, rng, head.timestamp, options.depeg, { onlyTrader: true });
  // Anvil takes a loaded chain's clock from the wall clock and refuses blocks before it: back to the head.
  await c.request('evm_setTime', [head.timestamp]);
  await c.setAutomine(false);
  try {
    for (let t = head.timestamp + rng.int(minGap, maxGap); t < nowSec(); t += rng.int(minGap, maxGap)) await tradeBlock(market, t);
    // The head at the wall clock (after a block in this second, the next second).
    const last = await c.latestBlock();
    await tradeBlock(market, Math.max(nowSec(), last.timestamp + 1));
  } finally {
    await c.setAutomine(true);
  }
  const end = await c.latestBlock();
  const counters = market.counters;
  return {
    blocks: end.number - head.number,
    swaps: counters.swapsV2 + counters.swapsV3 + counters.swapsPancakeV3,
    fromTimestamp: head.timestamp,
    toBlock: end.number,
    toTimestamp: end.timestamp,
    durationMs: Math.round(performance.now() - started),
  };
}
