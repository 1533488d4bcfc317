// SyncSwap classic and stable pools: the factory's PoolCreated(token0, token1, pool) (the pool type
// is the factory's: classic and stable factories are configured apart), the Uniswap V2 Swap,
// Sync(uint256,uint256). Classic: x·y = k; stable: the 2-coin Curve invariant with Ann = 2000
// (syncswap/core-contracts libraries/StableMath.sol: getY's b = x + D/2000, c = D³/(8000x)).
import { TOPICS, decodeSync256, decodeTwoTokenPool } from './events.ts';
import { curvePrice, curveD, curveStableCurve } from '../math/curveStable.ts';
import type { PoolFamily } from './PoolFamily.ts';
import { reserveEvents, reserveMath, type StableMath } from './reservePool.ts';

export const SYNCSWAP_ANN = 2000n;

const stableMath: StableMath = {
  price: (x, y) => curvePrice(x, y, curveD(x, y, SYNCSWAP_ANN), SYNCSWAP_ANN),
  curve: (x, y) => curveStableCurve(x, y, SYNCSWAP_ANN),
};

export const syncSwap: PoolFamily = {
  kind: 'syncswap',
  api: 'syncswap',
  factoryTypes: { 'syncswap-classic': { stable: false }, 'syncswap-stable': { stable: true } },
  creationTopic: TOPICS.syncSwapPoolCreated,
  // `stable` is set from the factory's configured type by the discovery step.
  decodeCreation: (log) => ({ ...decodeTwoTokenPool(log), fee: null, stable: null }),
  ...reserveEvents(TOPICS.sync256, decodeSync256),
  ...reserveMath((pool) => (pool.stable ? stableMath : null)),
};
