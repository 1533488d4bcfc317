// eth_getStorageAt of several slots of one contract at one block, in one JSON-RPC batch: each 32-byte word.
import type { ChainClient } from '../createChainClient.ts';
import { ChainError } from '../errors.ts';
import type { BlockTag } from '../types.ts';

export async function readStorageSlots(chain: ChainClient, address: string, slots: readonly string[], blockTag: BlockTag): Promise<string[]> {
  const tag = blockTag === 'latest' ? 'latest' : `0x${blockTag.toString(16)}`;
  const words = await chain.batch<string>(slots.map((slot) => ({ method: 'eth_getStorageAt', params: [address, slot, tag] })));
  return words.map((word) => {
    if (word instanceof ChainError) throw word;
    return String(word).toLowerCase();
  });
}
