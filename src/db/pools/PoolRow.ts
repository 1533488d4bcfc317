// A pool as the API stores it (migration 007). USD amounts and prices are exact decimal strings.
export type PoolRow = {
  address: string;
  checksumAddress: string;
  /** The factory that created the pool, checksummed. */
  dex: string;
  family: string;
  fee: number | null;
  stable: boolean | null;
  /** EIP-55 hooks contract of a Uniswap V4 pool; null otherwise. */
  hooks: string | null;
  priceSourceExclusion: string | null;
  token0Native: boolean;
  token1Native: boolean;
  token0: string;
  token0Checksum: string;
  token0Symbol: string;
  token1: string;
  token1Checksum: string;
  token1Symbol: string;
  liquidity: string | null;
  price: string | null;
  volume24h: string;
  swaps24h: number;
};

export const poolColumns = `
  address, checksum_address AS "checksumAddress", dex, family, fee, stable, hooks, price_source_exclusion AS "priceSourceExclusion",
  token0_native AS "token0Native", token1_native AS "token1Native",
  token0, token0_checksum AS "token0Checksum", token0_symbol AS "token0Symbol",
  token1, token1_checksum AS "token1Checksum", token1_symbol AS "token1Symbol",
  liquidity::text AS liquidity, price::text AS price, volume24h::text AS volume24h, swaps24h`;
