// JSON-RPC error codes used by /rpc and the error class that carries one to the response.
// Codes -32050..-32053 are this service's upstream failures (implementation-defined server
// error range); they are declared in spec/openrpc.json components.errors.
import { ChainError, HttpStatusError, InvalidResponseError, NodeUnreachableError, RateLimitedError, RpcTimeoutError } from '../chain/index.ts';

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
  if (!(err instanceof ChainError)) return new RpcError(RpcErrorCode.InternalError, 'Internal error', { cause: err });
  const httpStatus = err instanceof HttpStatusError ? err.status : err instanceof RateLimitedError ? err.status : null;
  // The node's own error is passed on unchanged: clients rely on its code and message.
  if (err.nodeError && httpStatus === null) return new RpcError(err.nodeError.code, err.nodeError.message, { data: err.nodeError.data, cause: err });
  const data: Record<string, unknown> = { reason: err.shortMessage };
  if (httpStatus !== null) data.status = httpStatus;
  if (err instanceof NodeUnreachableError && err.code !== undefined) data.errno = err.code;
  if (err instanceof RpcTimeoutError) return new RpcError(RpcErrorCode.UpstreamTimeout, 'Upstream node timeout', { data, cause: err });
  if (err instanceof NodeUnreachableError) return new RpcError(RpcErrorCode.UpstreamUnavailable, 'Upstream node unavailable', { data, cause: err });
  if (httpStatus !== null) return new RpcError(RpcErrorCode.UpstreamHttpError, 'Upstream node HTTP error', { data, cause: err });
  if (err instanceof InvalidResponseError) return new RpcError(RpcErrorCode.UpstreamInvalidResponse, 'Upstream node invalid response', { data, cause: err });
  return new RpcError(RpcErrorCode.InternalError, 'Internal error', { data, cause: err });
}
