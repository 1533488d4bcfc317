// The JSON-RPC endpoint as an Express router, for apps that mount it behind Express (tests,
// embedding). The service itself serves POST /rpc in front of Express (src/api/createHttpHandler.ts).
import express from 'express';
import { createRpcHandler, rpcPath, type RpcHandlerOptions } from './createRpcHandler.ts';

export type RpcRouterOptions = RpcHandlerOptions;

export function createRpcRouter(options: RpcRouterOptions): express.Router {
  const handler = createRpcHandler(options);
  const router = express.Router();
  router.all(rpcPath, (req, res) => handler(req, res));
  return router;
}
