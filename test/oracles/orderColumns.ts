// How each public order column maps to SQL, for the oracle that tests compare the read model's
// orderings with. Non-null columns need no NULLS clause; for nullable ones NULLS LAST holds in
// both directions (no index backs them since 005: production never orders in SQL).
// Columns are qualified: a bare name in ORDER BY would pick the SELECT list's text alias
// (e.g. `fdv::text AS fdv`) and sort numbers as strings.
export const orderColumns = {
  name: { sql: `(lower(tokens.name) COLLATE "C")`, nullable: false },
  symbol: { sql: `(lower(tokens.symbol) COLLATE "C")`, nullable: false },
  decimals: { sql: 'tokens.decimals', nullable: false },
  contractAddress: { sql: 'tokens.address', nullable: false },
  currentPrice: { sql: 'tokens.current_price', nullable: true },
  priceUpdatedAt: { sql: 'tokens.price_updated_at', nullable: true },
  marketUpdatedAt: { sql: 'tokens.market_updated_at', nullable: true },
  createdAt: { sql: 'tokens.created_at', nullable: false },
  updatedAt: { sql: 'tokens.updated_at', nullable: false },
  last24hVariation: { sql: 'tokens.last24h_variation', nullable: true },
  last24hVariationAbsolute: { sql: 'tokens.last24h_variation_abs', nullable: true },
  priceChange1h: { sql: 'tokens.price_change_1h', nullable: true },
  priceChange7d: { sql: 'tokens.price_change_7d', nullable: true },
  sells: { sql: 'tokens.sells', nullable: false },
  buys: { sql: 'tokens.buys', nullable: false },
  swaps: { sql: 'tokens.swaps', nullable: false },
  isPossibleSpam: { sql: 'tokens.is_possible_spam', nullable: false },
  totalSupply: { sql: 'tokens.total_supply', nullable: false },
  fdv: { sql: 'tokens.fdv', nullable: true },
  liquidity: { sql: 'tokens.liquidity', nullable: true },
  volume24h: { sql: 'tokens.volume24h', nullable: false },
  marketCap: { sql: 'tokens.market_cap', nullable: true },
  securityScore: { sql: 'tokens.security_score', nullable: false },
} as const;

export type OrderColumn = keyof typeof orderColumns;
export type SortDirection = 'asc' | 'desc';

export function orderByClause(column: OrderColumn, sort: SortDirection): string {
  const { sql, nullable } = orderColumns[column];
  const direction = sort === 'asc' ? 'ASC' : 'DESC';
  const primary = `${sql} ${direction}${nullable ? ' NULLS LAST' : ''}`;
  // address is unique: it ends every ordering so pages never repeat or skip a row
  return column === 'contractAddress' ? primary : `${primary}, tokens.address ASC`;
}
