// The events and views of the simulated contracts, declared here by canonical signature (the
// simulator imports nothing from src/indexer: test/sim/topics.test.ts compares both), and the
// ABI word encoding the logs and calls are written in.
import { id } from 'ethers';

export const EVENTS = {
  transfer: 'Transfer(address,address,uint256)',
  // factories
  pairCreated: 'PairCreated(address,address,address,uint256)',
  solidlyPairCreated: 'PairCreated(address,address,bool,address,uint256)',
  poolCreated: 'PoolCreated(address,address,uint24,int24,address)',
  algebraPool: 'Pool(address,address,address)',
  syncSwapPoolCreated: 'PoolCreated(address,address,address)',
  // reserve pools
  v2Swap: 'Swap(address,uint256,uint256,uint256,uint256,address)',
  v2Sync: 'Sync(uint112,uint112)',
  sync256: 'Sync(uint256,uint256)',
  v2Mint: 'Mint(address,uint256,uint256)',
  v2Burn: 'Burn(address,uint256,uint256,address)',
  // concentrated pools
  v3Swap: 'Swap(address,address,int256,int256,uint160,uint128,int24)',
  pancakeV3Swap: 'Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)',
  v3Initialize: 'Initialize(uint160,int24)',
  v3Mint: 'Mint(address,address,int24,int24,uint128,uint256,uint256)',
  v3Burn: 'Burn(address,int24,int24,uint128,uint256,uint256)',
  // Uniswap V4 PoolManager (v4-core 1.0.2)
  v4Initialize: 'Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)',
  v4Swap: 'Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)',
  v4ModifyLiquidity: 'ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32)',
  // Chainlink aggregator
  answerUpdated: 'AnswerUpdated(int256,uint256,uint256)',
} as const;

export type EventName = keyof typeof EVENTS;
export const TOPIC0 = Object.fromEntries(Object.entries(EVENTS).map(([k, sig]) => [k, id(sig)])) as Record<EventName, string>;

export const sel = (signature: string) => id(signature).slice(0, 10);

const MASK256 = (1n << 256n) - 1n;
const ZEROS = '0'.repeat(64);

/** One 32-byte word of a uint or int (two's complement), 64 hex characters without 0x. */
export function word(value: bigint | number): string {
  let v = typeof value === 'number' ? BigInt(value) : value;
  if (v < 0n) v &= MASK256;
  const hex = v.toString(16);
  return hex.length >= 64 ? hex : ZEROS.slice(hex.length) + hex;
}

/** An address (0x + 40 hex) as a word. */
export const addressWord = (address: string) => '000000000000000000000000' + address.slice(2);
export const boolWord = (b: boolean) => word(b ? 1n : 0n);
export const topic = (w: string) => '0x' + w;
export const data = (...words: string[]) => '0x' + words.join('');

export function readWord(hex: string, index: number): bigint {
  const start = 2 + 8 + index * 64;
  return BigInt('0x' + (hex.slice(start, start + 64) || '0'));
}

export function readAddress(hex: string, index: number): string {
  const start = 2 + 8 + index * 64;
  return '0x' + hex.slice(start + 24, start + 64).toLowerCase();
}

/** ABI encoding of one dynamic string return value. */
export function stringReturn(s: string): string {
  const bytes = Buffer.from(s, 'utf8');
  const hex = bytes.toString('hex');
  const padded = hex + '0'.repeat((64 - (hex.length % 64)) % 64);
  return '0x' + word(32n) + word(bytes.length) + padded;
}
