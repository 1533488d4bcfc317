// The package's "./client" export: the typed REST client, the JSON-RPC client and the specs' types.
export { createTokenApiClient, type TokenApiClient, type TokenApiClientOptions } from './createTokenApiClient.ts';
export { createRpcClient, isProblem, type RpcAnswer, type RpcClient, type RpcClientOptions, type RpcError } from './createRpcClient.ts';
export type { components, operations, paths } from '../../generated/openapi/types.ts';
export type { TransactionInfo, TransactionResult } from '../../generated/rpc/types.ts';
import type { components } from '../../generated/openapi/types.ts';

export type Token = components['schemas']['Token'];
export type TokenPage = components['schemas']['TokenPage'];
export type PriceHistory = components['schemas']['PriceHistory'];
export type PriceHistories = components['schemas']['PriceHistories'];
export type CandleSeries = components['schemas']['CandleSeries'];
export type PriceAt = components['schemas']['PriceAt'];
export type Problem = components['schemas']['Problem'];
export type Pool = components['schemas']['Pool'];
export type PoolPage = components['schemas']['PoolPage'];
export type OrderColumn = components['schemas']['OrderColumns'];
export type CandleInterval = components['schemas']['CandleIntervalName'];
export type TotalSupply = components['schemas']['TotalSupply'];
export type CirculatingSupply = components['schemas']['CirculatingSupply'];
