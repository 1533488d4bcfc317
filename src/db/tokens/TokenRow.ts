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
  priceUpdatedAt: Date | null;
  last24hVariation: string | null;
  fdv: string | null;
  sells: number;
  buys: number;
  swaps: number;
  isPossibleSpam: boolean;
  isSecure: boolean;
  createdAt: Date;
  updatedAt: Date;
};

export const tokenColumns = `
  address, checksum_address AS "checksumAddress", name, symbol, decimals, logo,
  total_supply::text AS "totalSupply", current_price::text AS "currentPrice",
  price_updated_at AS "priceUpdatedAt", last24h_variation::text AS "last24hVariation",
  fdv::text AS fdv, sells, buys, swaps, is_possible_spam AS "isPossibleSpam",
  is_secure AS "isSecure", created_at AS "createdAt", updated_at AS "updatedAt"`;
