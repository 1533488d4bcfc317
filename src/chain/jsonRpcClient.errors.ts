// Errors of the upstream JSON-RPC client. One class per failure mode so callers (the /rpc
// router, the indexer) can map them to distinct answers without parsing messages.
// viem style: a short human message plus the underlying `cause`.

export type UpstreamErrorKind = 'timeout' | 'unavailable' | 'http' | 'invalid-response' | 'rpc';

export abstract class UpstreamError extends Error {
  abstract readonly kind: UpstreamErrorKind;
  /** The JSON-RPC method that was being called. */
  readonly method: string;
  constructor(message: string, method: string, options?: { cause?: unknown }) {
    super(message, options);
    this.method = method;
  }
}

/** No answer within the timeout. */
export class UpstreamTimeoutError extends UpstreamError {
  override name = 'UpstreamTimeoutError';
  readonly kind = 'timeout';
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(`upstream node did not answer ${method} within ${timeoutMs} ms`, method, options);
    this.timeoutMs = timeoutMs;
  }
}

/** Connection refused/reset, DNS failure: the node cannot be reached. */
export class UpstreamConnectionError extends UpstreamError {
  override name = 'UpstreamConnectionError';
  readonly kind = 'unavailable';
  /** errno-style code when known, e.g. ECONNREFUSED. */
  readonly code: string | undefined;
  constructor(method: string, code: string | undefined, options?: { cause?: unknown }) {
    super(`upstream node unreachable${code ? ` (${code})` : ''}`, method, options);
    this.code = code;
  }
}

/** The node answered with a non-2xx HTTP status. */
export class UpstreamHttpError extends UpstreamError {
  override name = 'UpstreamHttpError';
  readonly kind = 'http';
  readonly status: number;
  constructor(method: string, status: number, options?: { cause?: unknown }) {
    super(`upstream node answered HTTP ${status}`, method, options);
    this.status = status;
  }
}

/** The body is not JSON, or not a JSON-RPC 2.0 response to our request. */
export class UpstreamInvalidResponseError extends UpstreamError {
  override name = 'UpstreamInvalidResponseError';
  readonly kind = 'invalid-response';
  constructor(method: string, detail: string, options?: { cause?: unknown }) {
    super(`upstream node sent an invalid JSON-RPC response: ${detail}`, method, options);
  }
}

/** The node answered with a JSON-RPC error object; code, message and data are the node's own. */
export class UpstreamRpcError extends UpstreamError {
  override name = 'UpstreamRpcError';
  readonly kind = 'rpc';
  readonly code: number;
  readonly rpcMessage: string;
  readonly data: unknown;
  constructor(method: string, error: { code: number; message: string; data?: unknown }) {
    super(`upstream node error ${error.code}: ${error.message}`, method);
    this.code = error.code;
    this.rpcMessage = error.message;
    this.data = error.data;
  }
}
