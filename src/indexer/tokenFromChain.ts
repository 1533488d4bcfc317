// A newly seen token's stored metadata: what the contract answered, else the token list, else empty.
import type { Erc20Metadata } from '../chain/index.ts';
import type { IndexerToken } from '../db/indexer/index.ts';
import type { TokenListEntry } from './loadTokenList.ts';

export function tokenFromChain(
  address: string,
  read: Erc20Metadata | undefined,
  listed: TokenListEntry | undefined,
  seen: { block: number; at: Date; supplyBlock: number },
): IndexerToken {
  const decimals = read?.decimals ?? listed?.decimals ?? null;
  return {
    address,
    name: read?.name || listed?.name || '',
    symbol: read?.symbol || listed?.symbol || '',
    decimals: decimals ?? 0,
    decimalsKnown: decimals !== null,
    listed: listed !== undefined,
    logo: listed?.logoURI ?? null,
    totalSupply: read?.totalSupply ?? 0n,
    supplyBlock: seen.supplyBlock,
    firstSeenBlock: seen.block,
    firstSeenAt: seen.at,
    circulatingSupply: null,
    circulatingBlock: null,
    circulatingReadAt: null,
  };
}
