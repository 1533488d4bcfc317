// Etherex legacy pairs: every event is Uniswap V2's (PairCreated, Swap, Sync(uint112,uint112)), the
// math is Solidly's (volatile x·y = k, stable x³y + xy³ = k), and the stable flag is only in the
// pair's stable() view, read when the pair is discovered.
import { id } from 'ethers';
import { TOPICS, decodePairCreated, decodeV2Swap, decodeV2Sync } from './events.ts';
import { solidlyStableCurve, solidlyStablePrice } from '../math/solidlyStable.ts';
import type { PoolFamily } from './PoolFamily.ts';
import { reserveMath, reserveStateRead, withReserves, type StableMath } from './reservePool.ts';

const stableMath: StableMath = { price: solidlyStablePrice, curve: solidlyStableCurve };

export const etherexLegacy: PoolFamily = {
  kind: 'etherex',
  api: 'solidly',
  factoryTypes: { 'etherex-legacy': { stable: null } },
  creationTopic: TOPICS.pairCreated,
  decodeCreation: (log) => ({ ...decodePairCreated(log), fee: null, stable: null }),
  stableCall: id('stable()').slice(0, 10),
  readState: reserveStateRead,
  poolTopics: [TOPICS.v2Swap, TOPICS.v2Sync],
  applyLog(pool, log) {
    if (log.topics[0] === TOPICS.v2Sync) {
      const { reserve0, reserve1 } = decodeV2Sync(log);
      return { state: withReserves(pool.state, reserve0, reserve1) };
    }
    if (log.topics[0] === TOPICS.v2Swap) return { swap: decodeV2Swap(log) };
    return null;
  },
  ...known(reserveMath((pool) => (pool.stable ? stableMath : null))),
};

/** Without a stable flag (its view did not answer) the invariant is unknown: no price, no depth. */
function known(math: ReturnType<typeof reserveMath>): ReturnType<typeof reserveMath> {
  return {
    spotPrice: (pool, d0, d1) => (pool.stable === null ? null : math.spotPrice(pool, d0, d1)),
    bandDepth: (pool, d0, d1) => (pool.stable === null ? null : math.bandDepth(pool, d0, d1)),
    balances: math.balances,
  };
}
