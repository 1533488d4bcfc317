import type { BlockNumberOrTag, ChainId, TransactionResult } from '../../generated/rpc/types.ts';
import type { components } from '../../generated/openapi/types.ts';

type Problem = components['schemas']['Problem'];

/** A JSON-RPC 2.0 error object (spec/openrpc.json lists the codes). */
export type RpcError = { code: number; message: string; data?: unknown };

/**
 * What one call answers, in openapi-fetch's shape: `data` on success, `error` otherwise — a
 * JSON-RPC error object, or the HTTP problem (application/problem+json: rate limited, body too
 * large, …) when the request was refused before reaching a method.
 */
export type RpcAnswer<T> = { data: T; error?: undefined; response: Response } | { data?: undefined; error: RpcError | Problem; response: Response };

export type RpcClient = {
  getTransactionByHash(hash: string): Promise<RpcAnswer<TransactionResult>>;
  getTransactionByBlockNumberAndIndex(block: BlockNumberOrTag, index: string): Promise<RpcAnswer<TransactionResult>>;
  chainId(): Promise<RpcAnswer<ChainId>>;
};

export type RpcClientOptions = { baseUrl: string; fetch?: typeof fetch; headers?: Record<string, string> };

/** True for the HTTP problem form of an error, false for a JSON-RPC error object. */
export const isProblem = (error: RpcError | Problem): error is Problem => 'title' in error && 'status' in error;

/**
 * A typed client for `POST /rpc` (spec/openrpc.json's methods; types generated from it), one
 * call per request. Parameters are sent as given: the server validates them and answers
 * JSON-RPC errors (-32602 for a bad hash or index), which come back as `error`.
 */
export function createRpcClient(options: RpcClientOptions): RpcClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/rpc`;
  const fetcher = options.fetch ?? globalThis.fetch;
  let id = 0;
  async function call<T>(method: string, params: unknown[]): Promise<RpcAnswer<T>> {
    const response = await fetcher(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const type = response.headers.get('content-type') ?? '';
    const body = (await response.json()) as { result?: T; error?: RpcError } & Partial<Problem>;
    if (type.includes('application/problem+json') || !response.ok) return { error: body as Problem, response };
    if (body.error) return { error: body.error, response };
    return { data: body.result as T, response };
  }
  return {
    getTransactionByHash: (hash) => call('eth_getTransactionByHash', [hash]),
    getTransactionByBlockNumberAndIndex: (block, index) => call('eth_getTransactionByBlockNumberAndIndex', [block, index]),
    chainId: () => call('eth_chainId', []),
  };
}
