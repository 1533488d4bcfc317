// PancakeSwap V3: Uniswap V3's PoolCreated, a Swap with two more fields (protocolFeesToken0/1),
// hence another topic0; the first five data fields read as Uniswap V3's.
import { TOPICS, decodePoolCreated } from './events.ts';
import { concentratedFamily } from './concentratedPool.ts';

export const pancakeV3 = concentratedFamily({
  kind: 'pancake-v3',
  api: 'pancakeswap-v3',
  factoryTypes: { 'pancake-v3': { stable: null } },
  creationTopic: TOPICS.poolCreated,
  decodeCreation: (log) => ({ ...decodePoolCreated(log), stable: null }),
  swapTopics: [TOPICS.pancakeV3Swap],
  priceView: 'slot0()',
});
