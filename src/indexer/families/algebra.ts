// Algebra V1.9 (Lynex CL) and Integral: the factory's Pool(token0, token1, pool), a 7-field Swap
// (V1.9, Integral ≤ 1.1) or 9-field one (Integral 1.2: + overrideFee, pluginFee) whose `price` is a
// Q64.96 √price; globalState() starts with that √price. Fees are dynamic: none is stored.
import { TOPICS, decodeTwoTokenPool } from './events.ts';
import { concentratedFamily } from './concentratedPool.ts';

export const algebra = concentratedFamily({
  kind: 'algebra',
  api: 'algebra',
  factoryTypes: { algebra: { stable: null } },
  creationTopic: TOPICS.algebraPool,
  decodeCreation: (log) => ({ ...decodeTwoTokenPool(log), fee: null, stable: null }),
  swapTopics: [TOPICS.v3Swap, TOPICS.algebraSwap9],
  priceView: 'globalState()',
});
