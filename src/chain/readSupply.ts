// Reads everything a supply figure needs at ONE block: the block is pinned first, then the
// token's metadata, its supply view and every holder balance are read with that block number
// (in one Multicall3 eth_call when available), so burns and transfers landing meanwhile
// cannot make the figures disagree with each other.
import { AbiCoder, id } from 'ethers';
import type { SupplyBlockTag } from '../config/supplyConfig.ts';
import { MULTICALL3_ADDRESS } from './contracts.ts';
import type { ChainClient } from './createChainClient.ts';
import { decodeString } from './decodeString.ts';
import { callMany, type CallResult } from './multicall.ts';
import { SupplyReadError } from './supply/SupplyReadError.ts';

export type SupplyReadRequest = {
  token: string;
  /** Supply view without arguments, e.g. "totalSupply()" or "l1LineaTokenSupply()". */
  sourceMethod: string;
  /** Balances are answered in this order. */
  holders: readonly string[];
  /** A tag to pin, or a block number already pinned (the indexer's batch end). */
  blockTag: SupplyBlockTag | number;
  /** Multicall3 address; null reads call by call. Default: the canonical address. */
  multicall?: string | null;
};

export type SupplyReading = {
  blockNumber: number;
  /** Unix seconds. */
  blockTimestamp: number;
  symbol: string | null;
  decimals: number;
  sourceSupply: bigint;
  balances: bigint[];
};

const coder = AbiCoder.defaultAbiCoder();
const selector = (sig: string) => id(sig).slice(0, 10);
const SYMBOL = selector('symbol()');
const DECIMALS = selector('decimals()');
const BALANCE_OF = selector('balanceOf(address)');

export async function readSupply(chain: ChainClient, req: SupplyReadRequest): Promise<SupplyReading> {
  const tag = typeof req.blockTag === 'number' ? `0x${req.blockTag.toString(16)}` : req.blockTag;
  const block = await chain.request<{ number: string; timestamp: string } | null>('eth_getBlockByNumber', [tag, false]);
  if (!block) throw new SupplyReadError(`the node has no ${req.blockTag} block`);
  const blockNumber = Number(block.number);
  const calls = [
    { to: req.token, data: SYMBOL },
    { to: req.token, data: DECIMALS },
    { to: req.token, data: selector(req.sourceMethod) },
    ...req.holders.map((h) => ({ to: req.token, data: BALANCE_OF + coder.encode(['address'], [h]).slice(2) })),
  ];
  const [symbol, decimals, supply, ...balances] = await callMany(chain, calls, blockNumber, req.multicall === undefined ? MULTICALL3_ADDRESS : req.multicall);
  const decimalsValue = uint(decimals, `${req.token} decimals()`);
  if (decimalsValue > 255n) throw new SupplyReadError(`${req.token} decimals() answered ${decimalsValue}, more than 255`);
  return {
    blockNumber,
    blockTimestamp: Number(block.timestamp),
    symbol: symbol?.ok ? decodeString(symbol.data) : null,
    decimals: Number(decimalsValue),
    sourceSupply: uint(supply, `${req.token} ${req.sourceMethod}`),
    balances: balances.map((b, i) => uint(b, `${req.token} balanceOf(${req.holders[i]})`)),
  };
}

// A figure that is missing must fail the read: a supply without it would be silently wrong.
function uint(result: CallResult | undefined, what: string): bigint {
  if (!result?.ok) throw new SupplyReadError(`${what} reverted at the pinned block`);
  if (!/^0x[0-9a-fA-F]{64}/.test(result.data)) throw new SupplyReadError(`${what} answered ${result.data.slice(0, 20) || 'nothing'}, not a uint256`);
  return BigInt(result.data.slice(0, 66));
}
