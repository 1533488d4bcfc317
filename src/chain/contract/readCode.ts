// eth_getCode: a contract's runtime bytecode at a block ('0x' for an account without code).
import { toQuantity } from 'ethers';
import type { ChainClient } from '../createChainClient.ts';
import type { BlockTag } from '../types.ts';

export async function readCode(chain: ChainClient, address: string, blockTag: BlockTag): Promise<string> {
  const code = await chain.request<string>('eth_getCode', [address, blockTag === 'latest' ? 'latest' : toQuantity(blockTag)]);
  return typeof code === 'string' ? code.toLowerCase() : '0x';
}
