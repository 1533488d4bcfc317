// eth_getStorageAt of several slots of one contract at one block, in parallel: each 32-byte word.
import { toQuantity } from 'ethers';
import type { ChainClient } from '../createChainClient.ts';
import type { BlockTag } from '../types.ts';

export async function readStorageSlots(chain: ChainClient, address: string, slots: readonly string[], blockTag: BlockTag): Promise<string[]> {
  const tag = blockTag === 'latest' ? 'latest' : toQuantity(blockTag);
  return Promise.all(slots.map(async (slot) => String(await chain.request<string>('eth_getStorageAt', [address, slot, tag])).toLowerCase()));
}
