// Every failure of a request to a node, one class per meaning. Each says whether sending the same
// request again may succeed (`retryable`, decided in one place: classifyNodeFailure.ts) and, when
// the node answered with a JSON-RPC error object, carries it unchanged in `nodeError`.
import { BaseError } from '../errors/index.ts';

/** A JSON-RPC 2.0 error object as the node sent it. */
export type NodeErrorObject = { code: number; message: string; data?: unknown };

type ChainErrorOptions = { method?: string; retryable?: boolean; nodeError?: NodeErrorObject; cause?: unknown; details?: string };

export class ChainError extends BaseError {
  override name = 'ChainError';
  /** The JSON-RPC method of the request that failed. */
  readonly method: string | undefined;
  /** True when the same request may succeed if sent again (a timeout, a 5xx, a rate limit). */
  readonly retryable: boolean;
  /** The node's own JSON-RPC error, when it answered with one. */
  readonly nodeError: NodeErrorObject | undefined;

  constructor(shortMessage: string, options: ChainErrorOptions = {}) {
    super(shortMessage, { cause: options.cause, details: options.details });
    this.method = options.method;
    this.retryable = options.retryable ?? false;
    this.nodeError = options.nodeError;
  }
}

/** No complete answer within the timeout. */
export class RpcTimeoutError extends ChainError {
  override name = 'RpcTimeoutError';
  constructor(
    method: string,
    readonly timeoutMs: number,
    options: { cause?: unknown } = {},
  ) {
    super(`upstream node did not answer ${method} within ${timeoutMs} ms`, { method, retryable: true, cause: options.cause });
  }
}

/** The node cannot be reached: connection refused or reset, name not resolved. */
export class NodeUnreachableError extends ChainError {
  override name = 'NodeUnreachableError';
  constructor(
    method: string,
    /** errno-style code when known, e.g. ECONNREFUSED. */
    readonly code: string | undefined,
    options: { cause?: unknown } = {},
  ) {
    super(`upstream node unreachable${code ? ` (${code})` : ''}`, { method, retryable: true, cause: options.cause });
  }
}

/** The node answered with an HTTP status that is not 2xx (429 is RateLimitedError). */
export class HttpStatusError extends ChainError {
  override name = 'HttpStatusError';
  constructor(
    method: string,
    readonly status: number,
    options: { retryable: boolean; details?: string },
  ) {
    super(`upstream node answered HTTP ${status}`, { method, retryable: options.retryable, details: options.details });
  }
}

/**
 * The provider refused the request for its rate: HTTP 429, or a JSON-RPC error that says so.
 * `retryAfterMs` is the provider's Retry-After when it sent one.
 */
export class RateLimitedError extends ChainError {
  override name = 'RateLimitedError';
  constructor(
    method: string,
    /** 429, or null when the refusal came as a JSON-RPC error in a 2xx answer. */
    readonly status: number | null,
    readonly retryAfterMs: number | null,
    options: { nodeError?: NodeErrorObject; details?: string } = {},
  ) {
    super(status === null ? `upstream node refused ${method} for its rate limit` : `upstream node answered HTTP ${status}`, {
      method, retryable: true, nodeError: options.nodeError, details: options.details,
    });
  }
}

/** The body is not JSON, or not a JSON-RPC 2.0 answer to the request sent. */
export class InvalidResponseError extends ChainError {
  override name = 'InvalidResponseError';
  constructor(method: string, detail: string, options: { cause?: unknown } = {}) {
    super(`upstream node sent an invalid JSON-RPC response: ${detail}`, { method, cause: options.cause });
  }
}

/** A JSON-RPC error from the node that no other class names (code, message and data are the node's). */
export class JsonRpcResponseError extends ChainError {
  override name = 'JsonRpcResponseError';
  constructor(method: string, nodeError: NodeErrorObject, options: { retryable: boolean }) {
    super(`upstream node error ${nodeError.code}: ${nodeError.message}`, { method, retryable: options.retryable, nodeError });
  }

  get code(): number {
    return this.nodeError!.code;
  }
}

/** eth_getLogs over too many blocks or results for this node; `suggestedToBlock` when the node named a range that works. */
export class LogRangeTooLargeError extends ChainError {
  override name = 'LogRangeTooLargeError';
  constructor(
    readonly fromBlock: number,
    readonly toBlock: number,
    readonly suggestedToBlock: number | null,
    options: { nodeError?: NodeErrorObject; details?: string } = {},
  ) {
    super(`upstream node refused eth_getLogs for blocks ${fromBlock}..${toBlock} as too large`, {
      method: 'eth_getLogs', nodeError: options.nodeError, details: options.details,
    });
  }
}

/** An eth_call reverted (or called a missing function): a property of the contract, not of the node. */
export class CallRevertedError extends ChainError {
  override name = 'CallRevertedError';
  constructor(
    readonly to: string,
    /** The revert data the node returned, 0x-prefixed, when it returned any. */
    readonly revertData: string | null,
    options: { nodeError?: NodeErrorObject } = {},
  ) {
    super(`call to ${to} reverted`, { method: 'eth_call', nodeError: options.nodeError });
  }
}
