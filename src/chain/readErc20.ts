// Tolerant ERC-20 reads: whatever a token answers is kept, whatever it refuses becomes null.
import { AbiCoder, id } from 'ethers';
import type { ChainClient } from './createChainClient.ts';
import { decodeString } from './decodeString.ts';
import { callMany, type CallResult } from './multicall.ts';
import type { BlockTag } from './types.ts';

export type Erc20Metadata = {
  address: string;
  name: string | null;
  symbol: string | null;
  /** Null when decimals() reverts, is missing or answers more than 255. */
  decimals: number | null;
  totalSupply: bigint | null;
};

const coder = AbiCoder.defaultAbiCoder();
const selector = (sig: string) => id(sig).slice(0, 10);
const NAME = selector('name()');
const SYMBOL = selector('symbol()');
const DECIMALS = selector('decimals()');
const TOTAL_SUPPLY = selector('totalSupply()');
const BALANCE_OF = selector('balanceOf(address)');

export async function readErc20Metadata(
  chain: ChainClient,
  addresses: readonly string[],
  blockTag: BlockTag,
  multicall?: string | null,
): Promise<Erc20Metadata[]> {
  const calls = addresses.flatMap((to) => [NAME, SYMBOL, DECIMALS, TOTAL_SUPPLY].map((data) => ({ to, data })));
  const results = await callMany(chain, calls, blockTag, multicall);
  return addresses.map((address, i) => {
    const [name, symbol, decimals, supply] = results.slice(i * 4, i * 4 + 4);
    return {
      address: address.toLowerCase(),
      name: name?.ok ? decodeString(name.data) : null,
      symbol: symbol?.ok ? decodeString(symbol.data) : null,
      decimals: decodeDecimals(decimals),
      totalSupply: decodeUint(supply),
    };
  });
}

/** totalSupply() of each token; null where it reverts or answers garbage. */
export async function readTotalSupplies(
  chain: ChainClient,
  addresses: readonly string[],
  blockTag: BlockTag,
  multicall?: string | null,
): Promise<(bigint | null)[]> {
  const results = await callMany(chain, addresses.map((to) => ({ to, data: TOTAL_SUPPLY })), blockTag, multicall);
  return results.map(decodeUint);
}

export async function readBalances(
  chain: ChainClient,
  queries: readonly { token: string; holder: string }[],
  blockTag: BlockTag,
  multicall?: string | null,
): Promise<(bigint | null)[]> {
  const calls = queries.map((q) => ({ to: q.token, data: BALANCE_OF + coder.encode(['address'], [q.holder]).slice(2) }));
  return (await callMany(chain, calls, blockTag, multicall)).map(decodeUint);
}

function decodeUint(result: CallResult | undefined): bigint | null {
  if (!result?.ok || result.data.length < 66) return null;
  try {
    return BigInt(result.data.slice(0, 66));
  } catch {
    return null;
  }
}

function decodeDecimals(result: CallResult | undefined): number | null {
  const value = decodeUint(result);
  return value === null || value > 255n ? null : Number(value);
}
