// Uniswap V3 and forks with identical events (SushiSwap V3, Etherex CL / Ramses V3, keyed by tick
// spacing but announcing the same PoolCreated): the 7-field Swap.
import { TOPICS, decodePoolCreated } from './events.ts';
import { concentratedFamily } from './concentratedPool.ts';

export const uniswapV3 = concentratedFamily({
  kind: 'v3',
  api: 'uniswap-v3',
  factoryTypes: { v3: { stable: null } },
  creationTopic: TOPICS.poolCreated,
  decodeCreation: (log) => ({ ...decodePoolCreated(log), stable: null }),
  swapTopics: [TOPICS.v3Swap],
  priceView: 'slot0()',
});
