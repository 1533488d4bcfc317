// The REST shapes, straight from the generated spec types: a spec change the code does not
// follow fails the type check.
import type { components, operations } from '../../generated/openapi/types.ts';

export type Token = components['schemas']['Token'];
export type TokenPage = components['schemas']['TokenPage'];
export type PricePoint = components['schemas']['PricePoint'];
export type PriceHistory = components['schemas']['PriceHistory'];
export type PriceHistories = components['schemas']['PriceHistories'];
export type OrderColumns = components['schemas']['OrderColumns'];
export type ListTokensQuery = NonNullable<operations['listTokens']['parameters']['query']>;
export type ListPriceHistoriesQuery = operations['listPriceHistories']['parameters']['query'];
