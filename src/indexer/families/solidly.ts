// Solidly pairs (Thena → Lynex V1, Ramses V1 → Nile): PairCreated with the stable flag, the
// Uniswap V2 Swap, Sync(uint256,uint256). Volatile pairs: x·y = k; stable pairs: x³y + xy³ = k.
import { TOPICS, decodeSolidlyPairCreated, decodeSync256 } from './events.ts';
import { solidlyStableCurve, solidlyStablePrice } from '../math/solidlyStable.ts';
import type { PoolFamily } from './PoolFamily.ts';
import { reserveEvents, reserveMath, type StableMath } from './reservePool.ts';

const stableMath: StableMath = { price: solidlyStablePrice, curve: solidlyStableCurve };

export const solidly: PoolFamily = {
  kind: 'solidly',
  api: 'solidly',
  factoryTypes: { solidly: { stable: null } },
  creationTopic: TOPICS.solidlyPairCreated,
  decodeCreation: (log) => ({ ...decodeSolidlyPairCreated(log), fee: null }),
  ...reserveEvents(TOPICS.sync256, decodeSync256),
  ...reserveMath((pool) => (pool.stable ? stableMath : null)),
};
