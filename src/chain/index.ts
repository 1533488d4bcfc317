export { createChainClient, type ChainClient, type ChainClientOptions, type ChainClientStats, type RpcCall } from './createChainClient.ts';
export { createRequestBudget, unlimitedBudget, type RequestBudget, type RequestPriority, type BudgetStats } from './createRequestBudget.ts';
export { callMany, type Call, type CallResult } from './multicall.ts';
export { readErc20Metadata, readTotalSupplies, readBalances, type Erc20Metadata } from './readErc20.ts';
export { readAggregatorRound, readFeedPhase, readUsdFeed, type FeedPhase, type FeedReading, type FeedRound } from './readUsdFeed.ts';
export { decodeString } from './decodeString.ts';
export { cutText } from './cutText.ts';
export { readHolderBalances, callsOf, type HolderBalancesRequest, type HolderBalances } from './readHolderBalances.ts';
export { readSupply, type SupplyReading } from './readSupply.ts';
export { supplyFigures } from './supply/supplyFigures.ts';
export { SupplyReadError } from './supply/SupplyReadError.ts';
export { classifyHttpStatus, classifyNodeError } from './classifyNodeFailure.ts';
export {
  ChainError, RpcTimeoutError, NodeUnreachableError, HttpStatusError, RateLimitedError, InvalidResponseError,
  JsonRpcResponseError, LogRangeTooLargeError, CallRevertedError, type NodeErrorObject,
} from './errors.ts';
export type { BlockHeader, BlockTag, LogFilter, RawLog } from './types.ts';
export { readCode } from './contract/readCode.ts';
export { readStorageSlots } from './contract/readStorageSlots.ts';
export { callFrom } from './contract/callFrom.ts';
export { readReceipt, type Receipt, type ReceiptLog } from './contract/readReceipt.ts';
