// Uniswap V2 and forks with identical events (SushiSwap V2, PancakeSwap V2): PairCreated, Swap,
// Sync(uint112,uint112); constant product, price = r1/r0.
import { TOPICS, decodePairCreated, decodeV2Swap, decodeV2Sync } from '../events.ts';
import type { PoolFamily } from './PoolFamily.ts';
import { reserveMath, withReserves } from './reservePool.ts';

export const uniswapV2: PoolFamily = {
  kind: 'v2',
  creationTopic: TOPICS.pairCreated,
  decodeCreation: (log) => ({ ...decodePairCreated(log), fee: null, stable: null }),
  poolTopics: [TOPICS.v2Swap, TOPICS.v2Sync],
  applyLog(pool, log) {
    if (log.topics[0] === TOPICS.v2Sync) {
      const { reserve0, reserve1 } = decodeV2Sync(log);
      return { state: withReserves(pool.state, reserve0, reserve1) };
    }
    if (log.topics[0] === TOPICS.v2Swap) return { swap: decodeV2Swap(log) };
    return null;
  },
  ...reserveMath(() => null),
};
