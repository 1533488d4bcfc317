// Concentrated-liquidity families (Uniswap V3 and forks, Algebra): √price, tick and active liquidity
// from Swap and Initialize, positions from Mint and Burn (after which price, tick and liquidity are
// read at that block), price (√P/2^96)², depth and balances walked over the positions' ticks (which
// of them the price has crossed decided by the pool's tick).
import type { RawLog } from '../../chain/index.ts';
import { id } from 'ethers';
import { TOPICS, decodePositionChange, decodeV3Initialize, decodeV3Swap } from './events.ts';
import { concentratedBalances, concentratedBandDepth } from '../math/concentrated.ts';
import { Q192 } from '../math/ratio.ts';
import { emptyState, type PoolFamily } from './PoolFamily.ts';

const selector = (signature: string) => id(signature).slice(0, 10);

export function concentratedFamily(options: {
  kind: PoolFamily['kind'];
  api: PoolFamily['api'];
  factoryTypes: PoolFamily['factoryTypes'];
  creationTopic: string;
  decodeCreation: PoolFamily['decodeCreation'];
  swapTopics: readonly string[];
  /** The view whose first word is the √price (slot0() or Algebra's globalState()). */
  priceView: string;
}): PoolFamily {
  const swaps = new Set(options.swapTopics);
  const [priceCall, liquidityCall] = [selector(options.priceView), selector('liquidity()')];
  return {
    kind: options.kind,
    api: options.api,
    factoryTypes: options.factoryTypes,
    creationTopic: options.creationTopic,
    decodeCreation: options.decodeCreation,
    poolTopics: [...options.swapTopics, TOPICS.v3Initialize, TOPICS.v3Mint, TOPICS.v3Burn],
    stateReadTopics: [TOPICS.v3Initialize, TOPICS.v3Mint, TOPICS.v3Burn],
    positionTopics: [TOPICS.v3Mint, TOPICS.v3Burn],
    stateCalls: [priceCall, liquidityCall],
    // The √price view (√price, then the tick) and liquidity(); an uninitialised pool (√price 0) has no state yet.
    readState: {
      calls: (pool) => [{ to: pool.address, data: priceCall }, { to: pool.address, data: liquidityCall }],
      decode(_pool, [price, liquidity]) {
        if (!price || !liquidity || price.length < 66 || liquidity.length < 66) return null;
        const sqrtPriceX96 = BigInt(price.slice(0, 66));
        const tick = price.length >= 130 ? Number(BigInt.asIntN(24, BigInt('0x' + price.slice(66, 130)))) : null;
        return sqrtPriceX96 === 0n ? null : { ...emptyState(), sqrtPriceX96, liquidity: BigInt(liquidity.slice(0, 66)), tick };
      },
    },
    applyLog(pool, log: RawLog) {
      const topic = log.topics[0] ?? '';
      if (swaps.has(topic)) {
        const { net0, net1, sqrtPriceX96, liquidity, tick } = decodeV3Swap(log);
        return { state: { ...pool.state, sqrtPriceX96, liquidity, tick }, swap: { net0, net1 } };
      }
      if (topic === TOPICS.v3Initialize) {
        const { sqrtPriceX96, tick } = decodeV3Initialize(log);
        return { state: { ...pool.state, sqrtPriceX96, tick, liquidity: pool.state.liquidity ?? 0n } };
      }
      if (topic === TOPICS.v3Mint || topic === TOPICS.v3Burn) return { position: decodePositionChange(log) };
      return null;
    },
    spotPrice(pool) {
      const s = pool.state.sqrtPriceX96;
      return s ? { num: s * s, den: Q192 } : null;
    },
    bandDepth(pool) {
      const { sqrtPriceX96: s, liquidity, tick } = pool.state;
      return s && liquidity !== null ? concentratedBandDepth(s, liquidity, pool.liquidityNet, tick) : null;
    },
    balances(pool) {
      const { sqrtPriceX96: s, liquidity, tick } = pool.state;
      return s && liquidity !== null ? concentratedBalances(s, liquidity, pool.liquidityNet, tick) : null;
    },
  };
}
