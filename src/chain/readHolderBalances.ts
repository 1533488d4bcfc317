// The inputs of many tokens' circulating supplies at one block number, in Multicall3 batches:
// each token's totalSupply() and its holders' balances. A token any of whose calls reverts or
// answers garbage gets null (its figure would be wrong); a node failure throws.
import { AbiCoder, id } from 'ethers';
import type { ChainClient } from './createChainClient.ts';
import { callMany, type CallResult } from './multicall.ts';

export type HolderBalancesRequest = { token: string; holders: readonly string[] };
export type HolderBalances = { totalSupply: bigint; balances: bigint[] };

const coder = AbiCoder.defaultAbiCoder();
const TOTAL_SUPPLY = id('totalSupply()').slice(0, 10);
const BALANCE_OF = id('balanceOf(address)').slice(0, 10);

/** eth_calls one request costs (inside Multicall3): totalSupply() and a balanceOf per holder. */
export const callsOf = (request: HolderBalancesRequest) => 1 + request.holders.length;

export async function readHolderBalances(
  chain: ChainClient,
  requests: readonly HolderBalancesRequest[],
  blockNumber: number,
  multicall?: string | null,
): Promise<(HolderBalances | null)[]> {
  const calls = requests.flatMap((r) => [
    { to: r.token, data: TOTAL_SUPPLY },
    ...r.holders.map((h) => ({ to: r.token, data: BALANCE_OF + coder.encode(['address'], [h]).slice(2) })),
  ]);
  const results = await callMany(chain, calls, blockNumber, multicall);
  let at = 0;
  return requests.map((r) => {
    const values = results.slice(at, at + callsOf(r)).map(uint);
    at += callsOf(r);
    if (values.some((v) => v === null)) return null;
    const [totalSupply, ...balances] = values as bigint[];
    return { totalSupply: totalSupply!, balances };
  });
}

function uint(result: CallResult | undefined): bigint | null {
  if (!result?.ok || !/^0x[0-9a-fA-F]{64}/.test(result.data)) return null;
  return BigInt(result.data.slice(0, 66));
}
