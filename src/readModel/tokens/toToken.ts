import type { TokenRow } from '../../db/index.ts';
import type { Token } from '../types.ts';

const toNumber = (value: string | null): number | null => (value === null ? null : Number(value));

/** Stored row → API token. Exact decimals become JSON numbers only here, at the edge. */
export function toToken(row: TokenRow): Token {
  return {
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
    logo: row.logo,
    contractAddress: row.checksumAddress,
    currentPrice: toNumber(row.currentPrice),
    priceUpdatedAt: row.priceUpdatedAt ? row.priceUpdatedAt.toISOString() : null,
    last24hVariation: toNumber(row.last24hVariation),
    isPossibleSpam: row.isPossibleSpam,
    isSecure: row.isSecure,
    info: {
      sells: row.sells,
      buys: row.buys,
      swaps: row.swaps,
      fdv: toNumber(row.fdv),
      totalSupply: row.totalSupply,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
