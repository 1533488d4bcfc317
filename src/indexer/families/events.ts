// The events the indexer reads, by canonical signature (topic0 = keccak256 of it), with decoders to
// plain values. Several families share a topic: a log is decoded only by the family of its pool.
import { AbiCoder, getAddress, id } from 'ethers';
import type { RawLog } from '../../chain/index.ts';

const coder = AbiCoder.defaultAbiCoder();

export const TOPICS = {
  /** Uniswap V2 and forks, Etherex legacy. */
  pairCreated: id('PairCreated(address,address,address,uint256)'),
  /** Solidly (Thena, Lynex V1, Ramses V1 / Nile): with the stable flag. */
  solidlyPairCreated: id('PairCreated(address,address,bool,address,uint256)'),
  /** Uniswap V3 and forks (Sushi V3, PancakeSwap V3, Etherex CL). */
  poolCreated: id('PoolCreated(address,address,uint24,int24,address)'),
  /** Algebra V1.9 and Integral. */
  algebraPool: id('Pool(address,address,address)'),
  /** SyncSwap classic and stable factories. */
  syncSwapPoolCreated: id('PoolCreated(address,address,address)'),
  /** Uniswap V2 order, shared by Solidly pairs and SyncSwap. */
  v2Swap: id('Swap(address,uint256,uint256,uint256,uint256,address)'),
  v2Sync: id('Sync(uint112,uint112)'),
  /** Solidly pairs and SyncSwap. */
  sync256: id('Sync(uint256,uint256)'),
  /** Uniswap V3 and forks, Algebra V1.9 and Integral ≤ 1.1. */
  v3Swap: id('Swap(address,address,int256,int256,uint160,uint128,int24)'),
  pancakeV3Swap: id('Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)'),
  algebraSwap9: id('Swap(address,address,int256,int256,uint160,uint128,int24,uint24,uint24)'),
  v3Initialize: id('Initialize(uint160,int24)'),
  v3Mint: id('Mint(address,address,int24,int24,uint128,uint256,uint256)'),
  v3Burn: id('Burn(address,int24,int24,uint128,uint256,uint256)'),
  /** Uniswap V4's PoolManager (`@uniswap/v4-core` 1.0.2, src/interfaces/IPoolManager.sol; PoolId and Currency are bytes32 and address). */
  v4Initialize: id('Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)'),
  v4Swap: id('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)'),
  v4ModifyLiquidity: id('ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32)'),
  /** Chainlink aggregators (the USD anchor's feed). */
  answerUpdated: id('AnswerUpdated(int256,uint256,uint256)'),
} as const;

export const ALL_TOPICS: string[] = [...new Set(Object.values(TOPICS))];

export const topicAddress = (topic: string | undefined) => (topic ? getAddress('0x' + topic.slice(26)).toLowerCase() : '');

const topicInt24 = (topic: string | undefined) => Number(BigInt.asIntN(24, BigInt(topic ?? '0x0')));

export function decodePairCreated(log: RawLog) {
  const [pair] = coder.decode(['address', 'uint256'], log.data) as unknown as [string, bigint];
  return { token0: topicAddress(log.topics[1]), token1: topicAddress(log.topics[2]), pool: pair.toLowerCase() };
}

export function decodeSolidlyPairCreated(log: RawLog) {
  const [stable, pair] = coder.decode(['bool', 'address', 'uint256'], log.data) as unknown as [boolean, string, bigint];
  return { token0: topicAddress(log.topics[1]), token1: topicAddress(log.topics[2]), pool: pair.toLowerCase(), stable };
}

export function decodePoolCreated(log: RawLog) {
  const [, pool] = coder.decode(['int24', 'address'], log.data) as unknown as [bigint, string];
  return { token0: topicAddress(log.topics[1]), token1: topicAddress(log.topics[2]), fee: Number(BigInt(log.topics[3] ?? '0x0')), pool: pool.toLowerCase() };
}

/** Algebra's Pool and SyncSwap's PoolCreated: (token0 indexed, token1 indexed, pool). */
export function decodeTwoTokenPool(log: RawLog) {
  const [pool] = coder.decode(['address'], log.data) as unknown as [string];
  return { token0: topicAddress(log.topics[1]), token1: topicAddress(log.topics[2]), pool: pool.toLowerCase() };
}

export function decodeV2Swap(log: RawLog) {
  const [amount0In, amount1In, amount0Out, amount1Out] = coder.decode(['uint256', 'uint256', 'uint256', 'uint256'], log.data) as unknown as bigint[];
  return { net0: amount0In! - amount0Out!, net1: amount1In! - amount1Out! };
}

export function decodeV2Sync(log: RawLog) {
  const [reserve0, reserve1] = coder.decode(['uint112', 'uint112'], log.data) as unknown as [bigint, bigint];
  return { reserve0, reserve1 };
}

export function decodeSync256(log: RawLog) {
  const [reserve0, reserve1] = coder.decode(['uint256', 'uint256'], log.data) as unknown as [bigint, bigint];
  return { reserve0, reserve1 };
}

/** The first five data fields of every concentrated-liquidity Swap (7-field, PancakeSwap's 9, Algebra Integral's 9). */
export function decodeV3Swap(log: RawLog) {
  const [amount0, amount1, sqrtPriceX96, liquidity, tick] = coder.decode(['int256', 'int256', 'uint160', 'uint128', 'int24'], log.data) as unknown as bigint[];
  return { net0: amount0!, net1: amount1!, sqrtPriceX96: sqrtPriceX96!, liquidity: liquidity!, tick: Number(tick) };
}

export function decodeV3Initialize(log: RawLog) {
  const [sqrtPriceX96, tick] = coder.decode(['uint160', 'int24'], log.data) as unknown as [bigint, bigint];
  return { sqrtPriceX96, tick: Number(tick) };
}

/** Mint (owner, tickLower, tickUpper indexed) and Burn (owner, tickLower, tickUpper indexed): the position's change. */
export function decodePositionChange(log: RawLog) {
  const isMint = log.topics[0] === TOPICS.v3Mint;
  const fields = isMint ? ['address', 'uint128', 'uint256', 'uint256'] : ['uint128', 'uint256', 'uint256'];
  const values = coder.decode(fields, log.data) as unknown as unknown[];
  const amount = values[isMint ? 1 : 0] as bigint;
  return { tickLower: topicInt24(log.topics[2]), tickUpper: topicInt24(log.topics[3]), liquidity: isMint ? amount : -amount };
}

/** Chainlink's AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt). */
export function decodeAnswerUpdated(log: RawLog) {
  const [updatedAt] = coder.decode(['uint256'], log.data) as unknown as [bigint];
  return { answer: BigInt.asIntN(256, BigInt(log.topics[1] ?? '0x0')), updatedAt: Number(updatedAt) };
}
