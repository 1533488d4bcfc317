// The standard Uniswap V2/V3 events the indexer reads, with decoders to plain values.
import { AbiCoder, getAddress, id } from 'ethers';
import type { RawLog } from '../chain/index.ts';

const coder = AbiCoder.defaultAbiCoder();

export const TOPICS = {
  pairCreated: id('PairCreated(address,address,address,uint256)'),
  poolCreated: id('PoolCreated(address,address,uint24,int24,address)'),
  v2Swap: id('Swap(address,uint256,uint256,uint256,uint256,address)'),
  v2Sync: id('Sync(uint112,uint112)'),
  v3Swap: id('Swap(address,address,int256,int256,uint160,uint128,int24)'),
  v3Initialize: id('Initialize(uint160,int24)'),
  v3Mint: id('Mint(address,address,int24,int24,uint128,uint256,uint256)'),
  v3Burn: id('Burn(address,int24,int24,uint128,uint256,uint256)'),
} as const;

export const ALL_TOPICS: string[] = Object.values(TOPICS);

const topicAddress = (topic: string | undefined) => (topic ? getAddress('0x' + topic.slice(26)).toLowerCase() : '');

export function decodePairCreated(log: RawLog) {
  const [pair] = coder.decode(['address', 'uint256'], log.data) as unknown as [string, bigint];
  return { token0: topicAddress(log.topics[1]), token1: topicAddress(log.topics[2]), pool: pair.toLowerCase() };
}

export function decodePoolCreated(log: RawLog) {
  const [, pool] = coder.decode(['int24', 'address'], log.data) as unknown as [bigint, string];
  return { token0: topicAddress(log.topics[1]), token1: topicAddress(log.topics[2]), fee: Number(BigInt(log.topics[3] ?? '0x0')), pool: pool.toLowerCase() };
}

export function decodeV2Swap(log: RawLog) {
  const [amount0In, amount1In, amount0Out, amount1Out] = coder.decode(['uint256', 'uint256', 'uint256', 'uint256'], log.data) as unknown as bigint[];
  return { net0: amount0In! - amount0Out!, net1: amount1In! - amount1Out! };
}

export function decodeV2Sync(log: RawLog) {
  const [reserve0, reserve1] = coder.decode(['uint112', 'uint112'], log.data) as unknown as [bigint, bigint];
  return { reserve0, reserve1 };
}

export function decodeV3Swap(log: RawLog) {
  const [amount0, amount1, sqrtPriceX96, liquidity] = coder.decode(['int256', 'int256', 'uint160', 'uint128', 'int24'], log.data) as unknown as bigint[];
  return { net0: amount0!, net1: amount1!, sqrtPriceX96: sqrtPriceX96!, liquidity: liquidity! };
}

export function decodeV3Initialize(log: RawLog) {
  const [sqrtPriceX96] = coder.decode(['uint160', 'int24'], log.data) as unknown as [bigint];
  return { sqrtPriceX96 };
}
