// A token as stored. Amounts and prices are exact decimal strings; the API turns them into JSON.
export type TokenRow = {
  address: string;
  checksumAddress: string;
  name: string;
  symbol: string;
  decimals: number;
  logo: string | null;
  totalSupply: string;
  currentPrice: string | null;
  /** The time of the block in which currentPrice took its value. */
  priceUpdatedAt: Date | null;
  /** The latest event of the token's own market (its price-source pool, or the feed's update time). */
  marketUpdatedAt: Date | null;
  last24hVariation: string | null;
  fdv: string | null;
  sells: number;
  buys: number;
  swaps: number;
  isPossibleSpam: boolean;
  /** JSON array of `{code, detail}`. */
  spamReasons: string;
  isSecure: boolean;
  securityScore: number;
  /** JSON array of `{code, impact, detail}`. */
  securityReasons: string;
  /** USD over the token's priced pools; null when none is priced. */
  liquidity: string | null;
  /** USD traded over the last 24 h. */
  volume24h: string;
  /** Lower-case address of the pool the price comes from, or of the anchor (see priceSourceKind). */
  priceSource: string | null;
  priceSourceKind: 'pool' | 'usd-feed' | 'usd-basket' | null;
  createdAt: Date;
  updatedAt: Date;
  /** Base units, exact decimal integer string; null until the indexer read it. */
  circulatingSupply: string | null;
  /** USD, price × circulating supply; null without either. */
  marketCap: string | null;
  /** Percent change over the last 1 h, 6 h and 7 d of chain time (24 h: last24hVariation). */
  priceChange1h: string | null;
  priceChange6h: string | null;
  priceChange7d: string | null;
  /** True once the token's contract checks have run (absent in rows built without the column: false). */
  contractChecked?: boolean;
};

export const tokenColumns = `
  address, checksum_address AS "checksumAddress", name, symbol, decimals, logo,
  total_supply::text AS "totalSupply", current_price::text AS "currentPrice",
  price_updated_at AS "priceUpdatedAt", market_updated_at AS "marketUpdatedAt", last24h_variation::text AS "last24hVariation",
  fdv::text AS fdv, sells, buys, swaps, is_possible_spam AS "isPossibleSpam",
  spam_reasons::text AS "spamReasons", is_secure AS "isSecure", security_score AS "securityScore",
  security_reasons::text AS "securityReasons", price_source_kind AS "priceSourceKind", liquidity::text AS liquidity, volume24h::text AS volume24h,
  price_source AS "priceSource", created_at AS "createdAt", updated_at AS "updatedAt",
  circulating_supply::text AS "circulatingSupply", market_cap::text AS "marketCap",
  price_change_1h::text AS "priceChange1h", price_change_6h::text AS "priceChange6h",
  price_change_7d::text AS "priceChange7d", contract_checked AS "contractChecked"`;
