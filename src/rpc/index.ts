// Public surface of the JSON-RPC transaction lookup endpoint.
export { createRpcRouter, rpcPath } from './createRpcRouter.ts';
export type { RpcObserver, RpcRouterOptions } from './createRpcRouter.ts';
export { RpcErrorCode } from './rpcError.ts';
export { openRpcDocument } from './openRpcDocument.ts';
