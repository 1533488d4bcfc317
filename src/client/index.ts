// The package's "./client" export: the typed REST client and the spec's types.
export { createTokenApiClient, type TokenApiClient, type TokenApiClientOptions } from './createTokenApiClient.ts';
export type { components, operations, paths } from '../../generated/openapi/types.ts';
import type { components } from '../../generated/openapi/types.ts';

export type Token = components['schemas']['Token'];
export type TokenPage = components['schemas']['TokenPage'];
export type PriceHistory = components['schemas']['PriceHistory'];
export type PriceHistories = components['schemas']['PriceHistories'];
export type CandleSeries = components['schemas']['CandleSeries'];
export type PriceAt = components['schemas']['PriceAt'];
export type Problem = components['schemas']['Problem'];
