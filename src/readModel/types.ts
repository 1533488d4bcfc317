// The REST shapes the read model builds, straight from the generated spec types: a spec change
// the code does not follow fails the type check (test/api/operations/specChange.test.ts).
import type { OperationParams } from '../../generated/openapi/operations.ts';
import type { components } from '../../generated/openapi/types.ts';

type Schemas = components['schemas'];
export type Token = Schemas['Token'];
export type TokenPage = Schemas['TokenPage'];
export type Pool = Schemas['Pool'];
export type PoolPage = Schemas['PoolPage'];
export type PageMeta = Schemas['PageMeta'];
export type PricePoint = Schemas['PricePoint'];
export type PriceHistory = Schemas['PriceHistory'];
export type PriceHistories = Schemas['PriceHistories'];
export type CandleSeries = Schemas['CandleSeries'];
export type PriceAt = Schemas['PriceAt'];

type ListTokens = OperationParams['listTokens'];
/** A column the token list can be ordered by (the spec's OrderColumns). */
export type OrderColumn = Schemas['OrderColumns'];
export type SortDirection = NonNullable<ListTokens['sort']>;

/**
 * A page of the token list: the request's parameters with addresses in lower case and without
 * repeats, `search` trimmed. Without `order` and `sort` the list is ordered by fdv descending,
 * or by relevance when searching.
 */
export type TokenListQuery = Pick<ListTokens, 'page' | 'limit' | 'order' | 'sort' | 'isSecure'> & {
  addresses?: readonly string[];
  search?: string;
};
