// JSON-RPC error codes used by /rpc and the error class that carries one to the response.
// Codes -32050..-32053 are this service's upstream failures (implementation-defined server
// error range); they are declared in spec/openrpc.json components.errors.
import { UpstreamError, UpstreamRpcError } from '../chain/jsonRpcClient.errors.ts';

export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  LimitExceeded: -32005,
  UpstreamTimeout: -32050,
  UpstreamUnavailable: -32051,
  UpstreamHttpError: -32052,
  UpstreamInvalidResponse: -32053,
} as const;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export class RpcError extends Error {
  override name = 'RpcError';
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, options?: { data?: unknown; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.code = code;
    this.data = options?.data;
  }
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** Maps anything thrown by a method handler to the error object sent to the client (never a stack). */
export function toRpcError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof UpstreamRpcError) {
    // The node's own error is passed on unchanged: clients rely on its code and message.
    return new RpcError(err.code, err.rpcMessage, { data: err.data, cause: err });
  }
  if (err instanceof UpstreamError) {
    const code = {
      timeout: RpcErrorCode.UpstreamTimeout,
      unavailable: RpcErrorCode.UpstreamUnavailable,
      http: RpcErrorCode.UpstreamHttpError,
      'invalid-response': RpcErrorCode.UpstreamInvalidResponse,
      rpc: RpcErrorCode.InternalError,
    }[err.kind];
    const data: Record<string, unknown> = { reason: err.message };
    if ('status' in err) data.status = err.status;
    if ('code' in err && typeof err.code === 'string') data.errno = err.code;
    return new RpcError(code, upstreamMessages[err.kind], { data, cause: err });
  }
  return new RpcError(RpcErrorCode.InternalError, 'Internal error', { cause: err });
}

const upstreamMessages = {
  timeout: 'Upstream node timeout',
  unavailable: 'Upstream node unavailable',
  http: 'Upstream node HTTP error',
  'invalid-response': 'Upstream node invalid response',
  rpc: 'Internal error',
} as const;
