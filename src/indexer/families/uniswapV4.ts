// Uniswap V4: one PoolManager holds every pool, and a pool is its 32-byte id (keccak256 of the
// ABI-encoded pool key). The manager announces a pool with Initialize(id, currency0, currency1,
// fee, tickSpacing, hooks, sqrtPriceX96, tick) and emits every pool's Swap and ModifyLiquidity; the
// configured "factory" is the manager and a log's pool is its topic 1. State comes from the events
// alone: Swap carries √price, liquidity, tick and the LP fee it charged (fees may change with every
// swap); ModifyLiquidity changes the active liquidity when the position holds the current tick
// (Pool.modifyLiquidity: tickLower <= tick < tickUpper). Swap amounts are the swapper's balance
// deltas (Pool.swap's swapDelta: negative = paid into the pool), so the pool's net is their negation.
// A hooks contract whose address carries beforeSwapReturnDelta or afterSwapReturnDelta (Hooks.sol,
// bits 3 and 2) can take or add part of each trade: such a pool never prices a token.
// Native ETH is currency address(0); discovery keeps it as the wrapped native token.
import { AbiCoder, id, keccak256 } from 'ethers';
import type { RawLog } from '../../chain/index.ts';
import { concentratedBalances, concentratedBandDepth } from '../math/concentrated.ts';
import { Q192 } from '../math/ratio.ts';
import { TOPICS, topicAddress } from './events.ts';
import { emptyState, type PoolFamily, type StateRead } from './PoolFamily.ts';

const coder = AbiCoder.defaultAbiCoder();

/** Hooks.sol: BEFORE_SWAP_RETURNS_DELTA_FLAG = 1 << 3, AFTER_SWAP_RETURNS_DELTA_FLAG = 1 << 2. */
const SWAP_DELTA_FLAGS = (1n << 3n) | (1n << 2n);
/** LPFeeLibrary.DYNAMIC_FEE_FLAG: the key's fee says the hook sets the fee of each swap. */
const DYNAMIC_FEE_FLAG = 0x800000;
const ZERO = '0x0000000000000000000000000000000000000000';

export const hooksReturnSwapDelta = (hooks: string | null): boolean => hooks !== null && (BigInt(hooks) & SWAP_DELTA_FLAGS) !== 0n;

export function decodeV4Initialize(log: RawLog) {
  const [fee, tickSpacing, hooks, sqrtPriceX96, tick] = coder.decode(['uint24', 'int24', 'address', 'uint160', 'int24'], log.data) as unknown as [bigint, bigint, string, bigint, bigint];
  return {
    pool: (log.topics[1] ?? '').toLowerCase(), currency0: topicAddress(log.topics[2]), currency1: topicAddress(log.topics[3]),
    fee: Number(fee), tickSpacing: Number(tickSpacing), hooks: hooks.toLowerCase() === ZERO ? null : hooks.toLowerCase(), sqrtPriceX96, tick: Number(tick),
  };
}

export function decodeV4Swap(log: RawLog) {
  const [amount0, amount1, sqrtPriceX96, liquidity, tick, fee] = coder.decode(['int128', 'int128', 'uint160', 'uint128', 'int24', 'uint24'], log.data) as unknown as bigint[];
  return { net0: -amount0!, net1: -amount1!, sqrtPriceX96: sqrtPriceX96!, liquidity: liquidity!, tick: Number(tick), fee: Number(fee) };
}

export function decodeV4ModifyLiquidity(log: RawLog) {
  const [tickLower, tickUpper, liquidityDelta] = coder.decode(['int24', 'int24', 'int256', 'bytes32'], log.data) as unknown as bigint[];
  return { tickLower: Number(tickLower), tickUpper: Number(tickUpper), liquidity: liquidityDelta! };
}

const EXTSLOAD = id('extsload(bytes32)').slice(0, 10);

/** StateLibrary: a pool's Pool.State starts at keccak256(id, POOLS_SLOT = 6); its liquidity is 3 words further. */
export function v4StateSlot(poolId: string, offset: bigint): string {
  const base = BigInt(keccak256(coder.encode(['bytes32', 'uint256'], [poolId, 6n])));
  return ((base + offset) % (1n << 256n)).toString(16).padStart(64, '0');
}

/**
 * A pool's state read from its PoolManager with extsload at StateLibrary's slots: slot0 packs the
 * √price (bits 0–159), the tick (160–183), the protocol fee (184–207) and the LP fee (208–231); the
 * liquidity is its own word. The LP fee stands for the fee of the latest swap (equal without a
 * protocol fee or a hook overriding the fee per swap).
 */
const v4StateRead: StateRead = {
  calls: (pool) => [0n, 3n].map((offset) => ({ to: pool.factory, data: EXTSLOAD + v4StateSlot(pool.address, offset) })),
  decode(_pool, [slot0, liquidity]) {
    if (!slot0 || !liquidity || slot0.length < 66 || liquidity.length < 66) return null;
    const word = BigInt(slot0.slice(0, 66));
    const sqrtPriceX96 = word & ((1n << 160n) - 1n);
    if (sqrtPriceX96 === 0n) return null;
    return {
      ...emptyState(), sqrtPriceX96, tick: Number(BigInt.asIntN(24, (word >> 160n) & 0xffffffn)),
      liquidity: BigInt(liquidity.slice(0, 66)), fee: Number((word >> 208n) & 0xffffffn),
    };
  },
};

export const uniswapV4: PoolFamily = {
  kind: 'v4',
  api: 'uniswap-v4',
  factoryTypes: { v4: { stable: null } },
  singleton: true,
  poolOf: (log) => (log.topics[1] ?? '').toLowerCase(),
  creationTopic: TOPICS.v4Initialize,
  decodeCreation(log) {
    const created = decodeV4Initialize(log);
    return {
      token0: created.currency0, token1: created.currency1, pool: created.pool, stable: null, hooks: created.hooks,
      fee: created.fee & DYNAMIC_FEE_FLAG ? null : created.fee,
    };
  },
  readState: v4StateRead,
  positionTopics: [TOPICS.v4ModifyLiquidity],
  poolTopics: [TOPICS.v4Initialize, TOPICS.v4Swap, TOPICS.v4ModifyLiquidity],
  applyLog(pool, log) {
    const topic = log.topics[0];
    if (topic === TOPICS.v4Swap) {
      const { net0, net1, sqrtPriceX96, liquidity, tick, fee } = decodeV4Swap(log);
      return { state: { ...pool.state, sqrtPriceX96, liquidity, tick, fee }, swap: { net0, net1 } };
    }
    if (topic === TOPICS.v4ModifyLiquidity) {
      const position = decodeV4ModifyLiquidity(log);
      const tick = pool.state.tick;
      const active = tick !== null && position.tickLower <= tick && tick < position.tickUpper;
      const liquidity = (pool.state.liquidity ?? 0n) + (active ? position.liquidity : 0n);
      return { state: { ...pool.state, liquidity }, position };
    }
    if (topic === TOPICS.v4Initialize) {
      const { sqrtPriceX96, tick } = decodeV4Initialize(log);
      return { state: { ...pool.state, sqrtPriceX96, tick, liquidity: 0n } };
    }
    return null;
  },
  priceSourceExclusion: (pool) => (hooksReturnSwapDelta(pool.hooks) ? 'hook-returns-swap-delta' : null),
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
