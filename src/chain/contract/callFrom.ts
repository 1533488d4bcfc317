// eth_call sent as `from` (no state override: every node answers it). Reverts throw
// CallRevertedError, whose cause carries the node's revert data or message.
import { toQuantity } from 'ethers';
import type { ChainClient } from '../createChainClient.ts';
import type { BlockTag } from '../types.ts';

export function callFrom(chain: ChainClient, from: string, to: string, data: string, blockTag: BlockTag): Promise<string> {
  return chain.request<string>('eth_call', [{ from, to, data }, blockTag === 'latest' ? 'latest' : toQuantity(blockTag)]);
}
