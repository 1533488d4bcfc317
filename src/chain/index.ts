export { createChainClient, type ChainClient, type ChainClientOptions, type ChainClientStats } from './createChainClient.ts';
export { callMany, type Call, type CallResult } from './multicall.ts';
export { readErc20Metadata, readTotalSupplies, readBalances, type Erc20Metadata } from './readErc20.ts';
export { readUsdFeed, type FeedReading, type FeedRound } from './readUsdFeed.ts';
export { decodeString } from './decodeString.ts';
export { classifyRpcError, type RpcErrorKind } from './classifyRpcError.ts';
export { createNodeCallLimiter, type NodeCallLimiter } from './createNodeCallLimiter.ts';
export { ChainRequestError, CallRevertedError, LogRangeError } from './errors.ts';
export type { BlockHeader, BlockTag, LogFilter, RawLog } from './types.ts';
