// How each public order column maps to SQL. Non-null columns need no NULLS clause; for nullable
// ones NULLS LAST holds in both directions. Each expression matches an index in 001_tokens.sql.
export const orderColumns = {
  name: { sql: `(lower(name) COLLATE "C")`, nullable: false },
  symbol: { sql: `(lower(symbol) COLLATE "C")`, nullable: false },
  decimals: { sql: 'decimals', nullable: false },
  contractAddress: { sql: 'address', nullable: false },
  currentPrice: { sql: 'current_price', nullable: true },
  priceUpdatedAt: { sql: 'price_updated_at', nullable: true },
  createdAt: { sql: 'created_at', nullable: false },
  updatedAt: { sql: 'updated_at', nullable: false },
  last24hVariation: { sql: 'last24h_variation', nullable: true },
  last24hVariationAbsolute: { sql: 'last24h_variation_abs', nullable: true },
  sells: { sql: 'sells', nullable: false },
  buys: { sql: 'buys', nullable: false },
  swaps: { sql: 'swaps', nullable: false },
  isPossibleSpam: { sql: 'is_possible_spam', nullable: false },
  totalSupply: { sql: 'total_supply', nullable: false },
  fdv: { sql: 'fdv', nullable: true },
} as const;

export type OrderColumn = keyof typeof orderColumns;
export type SortDirection = 'asc' | 'desc';

export function orderByClause(column: OrderColumn, sort: SortDirection): string {
  const { sql, nullable } = orderColumns[column];
  const direction = sort === 'asc' ? 'ASC' : 'DESC';
  const primary = `${sql} ${direction}${nullable ? ' NULLS LAST' : ''}`;
  // address is unique: it ends every ordering so pages never repeat or skip a row
  return column === 'contractAddress' ? primary : `${primary}, address ASC`;
}
