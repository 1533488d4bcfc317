// Solidly pairs (Thena → Lynex V1, Ramses V1 → Nile): PairCreated with the stable flag, the
// Uniswap V2 Swap, Sync(uint256,uint256). Volatile pairs: x·y = k; stable pairs: x³y + xy³ = k.
import { TOPICS, decodeSolidlyPairCreated, decodeSync256, decodeV2Swap } from '../events.ts';
import { solidlyStableCurve, solidlyStablePrice } from '../poolMath/solidlyStable.ts';
import type { PoolFamily } from './PoolFamily.ts';
import { reserveMath, withReserves, type StableMath } from './reservePool.ts';

const stableMath: StableMath = { price: solidlyStablePrice, curve: solidlyStableCurve };

export const solidly: PoolFamily = {
  kind: 'solidly',
  creationTopic: TOPICS.solidlyPairCreated,
  decodeCreation: (log) => ({ ...decodeSolidlyPairCreated(log), fee: null }),
  poolTopics: [TOPICS.v2Swap, TOPICS.sync256],
  applyLog(pool, log) {
    if (log.topics[0] === TOPICS.sync256) {
      const { reserve0, reserve1 } = decodeSync256(log);
      return { state: withReserves(pool.state, reserve0, reserve1) };
    }
    if (log.topics[0] === TOPICS.v2Swap) return { swap: decodeV2Swap(log) };
    return null;
  },
  ...reserveMath((pool) => (pool.stable ? stableMath : null)),
};
