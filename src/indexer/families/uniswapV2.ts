// Uniswap V2 and forks with identical events (SushiSwap V2, PancakeSwap V2): PairCreated, Swap,
// Sync(uint112,uint112); constant product, price = r1/r0.
import { TOPICS, decodePairCreated, decodeV2Sync } from './events.ts';
import type { PoolFamily } from './PoolFamily.ts';
import { reserveEvents, reserveMath } from './reservePool.ts';

export const uniswapV2: PoolFamily = {
  kind: 'v2',
  api: 'uniswap-v2',
  factoryTypes: { v2: { stable: null } },
  creationTopic: TOPICS.pairCreated,
  decodeCreation: (log) => ({ ...decodePairCreated(log), fee: null, stable: null }),
  ...reserveEvents(TOPICS.v2Sync, decodeV2Sync),
  ...reserveMath(() => null),
};
