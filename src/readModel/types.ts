// The REST shapes, straight from the generated spec types: a spec change the code does not
// follow fails the type check.
import type { components, operations } from '../../generated/openapi/types.ts';

export type Token = components['schemas']['Token'];
export type TokenPage = components['schemas']['TokenPage'];
export type Pool = components['schemas']['Pool'];
export type PoolPage = components['schemas']['PoolPage'];
export type PricePoint = components['schemas']['PricePoint'];
export type PriceHistory = components['schemas']['PriceHistory'];
export type PriceHistories = components['schemas']['PriceHistories'];
export type OrderColumns = components['schemas']['OrderColumns'];
export type ListTokensQuery = NonNullable<operations['listTokens']['parameters']['query']>;
export type ListPriceHistoriesQuery = operations['listPriceHistories']['parameters']['query'];

/** A column the token list can be ordered by (the spec's OrderColumns). */
export type OrderColumn = OrderColumns;
export type SortDirection = 'asc' | 'desc';

/**
 * A page of the token list: paging applied, addresses in lower case, `search` trimmed. Without
 * `order` and `sort` the list is ordered by fdv descending, or by relevance when searching.
 */
export type TokenListQuery = {
  page: number;
  limit: number;
  order?: OrderColumn;
  sort?: SortDirection;
  isSecure?: boolean;
  addresses?: readonly string[];
  search?: string;
};
