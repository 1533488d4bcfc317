// JSON-RPC 2.0 request/batch processing, independent of HTTP. Given the parsed body it returns
// the response (object or array) or null when nothing must be sent (notifications only).
import type { ParamsValidator } from './paramValidators.ts';
import type { RpcHandler } from './rpcMethods.ts';
import { RpcError, RpcErrorCode, toRpcError, type JsonRpcErrorObject } from './rpcError.ts';

export type JsonRpcId = string | number | null;
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject };

export interface Dispatcher {
  dispatch(body: unknown): Promise<JsonRpcResponse | JsonRpcResponse[] | null>;
}

export interface DispatcherOptions {
  handlers: Map<string, RpcHandler>;
  validators: Map<string, ParamsValidator>;
  /** Result of rpc.discover. */
  discover: () => unknown;
  maxBatchSize: number;
  /** Metrics hook; method is a known method name or "unknown"/"invalid" to bound label cardinality. */
  onCall?: (method: string, errorCode: number | null, seconds: number) => void;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { handlers, validators, onCall } = options;
  for (const name of validators.keys()) {
    if (!handlers.has(name)) throw new Error(`spec/openrpc.json declares ${name} but no handler implements it`);
  }
  for (const name of handlers.keys()) {
    if (!validators.has(name)) throw new Error(`handler ${name} is not declared in spec/openrpc.json`);
  }

  async function one(req: unknown): Promise<JsonRpcResponse | null> {
    const started = performance.now();
    let label = 'invalid';
    let id: JsonRpcId = null;
    const done = (response: JsonRpcResponse): JsonRpcResponse => {
      onCall?.(label, 'error' in response ? response.error.code : null, (performance.now() - started) / 1000);
      return response;
    };
    if (typeof req !== 'object' || req === null || Array.isArray(req)) {
      return done(failure(null, new RpcError(RpcErrorCode.InvalidRequest, 'Invalid Request: expected a JSON-RPC request object')));
    }
    const r = req as Record<string, unknown>;
    const hasId = Object.hasOwn(r, 'id');
    if (hasId && !isValidId(r.id)) {
      return done(failure(null, new RpcError(RpcErrorCode.InvalidRequest, 'Invalid Request: id must be a string, a number or null')));
    }
    id = hasId ? (r.id as JsonRpcId) : null;
    if (r.jsonrpc !== '2.0') return done(failure(id, new RpcError(RpcErrorCode.InvalidRequest, 'Invalid Request: jsonrpc must be exactly "2.0"')));
    if (typeof r.method !== 'string') return done(failure(id, new RpcError(RpcErrorCode.InvalidRequest, 'Invalid Request: method must be a string')));
    if (r.params !== undefined && (typeof r.params !== 'object' || r.params === null)) {
      return done(failure(id, new RpcError(RpcErrorCode.InvalidRequest, 'Invalid Request: params must be an array or an object')));
    }
    // A well-formed request without id is a notification: never answered. All our methods are
    // read-only, so there is nothing worth executing either.
    if (!hasId) return null;
    const method = r.method;
    if (method === 'rpc.discover') {
      label = method;
      if (r.params !== undefined && !(Array.isArray(r.params) && r.params.length === 0)) {
        return done(failure(id, new RpcError(RpcErrorCode.InvalidParams, 'Invalid params: rpc.discover takes no params')));
      }
      return done({ jsonrpc: '2.0', id, result: options.discover() });
    }
    const handler = handlers.get(method);
    const validate = validators.get(method);
    if (!handler || !validate) {
      label = 'unknown';
      const shown = method.length > 64 ? `${method.slice(0, 64)}...` : method;
      return done(failure(id, new RpcError(RpcErrorCode.MethodNotFound, `Method not found: ${shown}`)));
    }
    label = method;
    try {
      const params = validate(r.params);
      return done({ jsonrpc: '2.0', id, result: await handler(params) });
    } catch (err) {
      return done(failure(id, toRpcError(err)));
    }
  }

  return {
    async dispatch(body) {
      if (!Array.isArray(body)) return one(body);
      if (body.length === 0) return failure(null, new RpcError(RpcErrorCode.InvalidRequest, 'Invalid Request: empty batch'));
      if (body.length > options.maxBatchSize) {
        return failure(
          null,
          new RpcError(RpcErrorCode.LimitExceeded, `Batch too large: ${body.length} requests, at most ${options.maxBatchSize} allowed`),
        );
      }
      const responses = (await Promise.all(body.map(one))).filter((x): x is JsonRpcResponse => x !== null);
      return responses.length === 0 ? null : responses;
    },
  };
}

function isValidId(id: unknown): boolean {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

export function failure(id: JsonRpcId, err: RpcError): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: err.toJSON() };
}
