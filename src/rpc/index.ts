// Public surface of the JSON-RPC transaction lookup endpoint.
export { createRpcHandler, rpcPath } from './createRpcHandler.ts';
export type { RpcHandlerOptions, RpcObserver } from './createRpcHandler.ts';
export { createRpcRouter } from './createRpcRouter.ts';
export type { RpcRouterOptions } from './createRpcRouter.ts';
export { RpcErrorCode } from './rpcError.ts';
export { openRpcDocument } from './openRpcDocument.ts';
