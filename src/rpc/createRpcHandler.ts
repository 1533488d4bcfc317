// JSON-RPC 2.0 over HTTP as a plain node:http request listener, so the HTTP front can serve
// POST /rpc without Express (its per-request cost was most of a cached lookup's time). It reads
// the raw body itself so size limits, parse errors and content-type errors are answered as
// JSON-RPC errors (never HTML). HTTP status: 200 for any JSON-RPC answer to a well-formed HTTP
// request, 204 when only notifications were sent, 405 non-POST, 408 body not received in time,
// 413 body too large, 415 wrong Content-Type/Content-Encoding. See docs/rpc.md.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createChainClient, type ChainClient, type RequestBudget } from '../chain/index.ts';
import { createDispatcher, failure, type JsonRpcResponse } from './createDispatcher.ts';
import { finalizedBlock } from './finalizedBlock.ts';
import { openRpcDocument } from './openRpcDocument.ts';
import { paramValidators } from './paramValidators.ts';
import { BodyTimeoutError, BodyTooLargeError, readRawBody } from './readRawBody.ts';
import { RpcError, RpcErrorCode } from './rpcError.ts';
import { rpcMethods } from './rpcMethods.ts';

export interface RpcObserver {
  /** One JSON-RPC call answered (batch elements count individually); errorCode null on success. */
  call(method: string, errorCode: number | null, seconds: number): void;
  /** One request to the upstream node. */
  upstream(method: string, ok: boolean, seconds: number): void;
  /** One lookup in the transaction cache. */
  cacheLookup?(hit: boolean): void;
}

export interface RpcHandlerOptions {
  /** Upstream execution client JSON-RPC URL, e.g. https://rpc.linea.build */
  upstreamUrl: string;
  /** Default 10000. */
  upstreamTimeoutMs?: number;
  /** Default 100. */
  maxBatchSize?: number;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
  /** Longest time to receive the body once the headers are in; 408 beyond it. Default 10000. */
  bodyTimeoutMs?: number;
  /** LRU entries for finalized transactions. Default 10000; 0 disables caching. */
  cacheSize?: number;
  /** How long the finalized block number is reused, default 2000 ms. */
  finalizedTtlMs?: number;
  /** Used when the node does not support the `finalized` tag: final = latest - N. Default 64. */
  fallbackConfirmations?: number;
  /** How long after its start an upstream call is shared with identical new requests. Default 250. */
  shareWindowMs?: number;
  observe?: RpcObserver;
  /** The process's request budget, shared with the indexer and the supply reads (default: none of its own). */
  budget?: RequestBudget;
  /** The node client to use instead of one made here from the options above (it must not retry). */
  client?: ChainClient;
}

export const rpcPath = '/rpc';

export function createRpcHandler(options: RpcHandlerOptions): RequestListener {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  // Fail at startup, not on the first request, on a malformed upstream URL.
  const upstream = new URL(options.upstreamUrl);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') {
    throw new Error(`upstreamUrl must be http(s), got ${upstream.protocol}`);
  }
  const doc = openRpcDocument();
  // A user waits on each call: no retries (the answer says what failed), ahead of background reads in the budget.
  const client = options.client ?? createChainClient({
    url: options.upstreamUrl,
    timeoutMs: options.upstreamTimeoutMs ?? 10_000,
    maxRetries: 0,
    budget: options.budget,
    priority: 'interactive',
    observe: options.observe ? (m, ok, s) => options.observe?.upstream(m, ok, s) : undefined,
  });
  const finalized = finalizedBlock(client, { ttlMs: options.finalizedTtlMs, fallbackConfirmations: options.fallbackConfirmations });
  const dispatcher = createDispatcher({
    handlers: rpcMethods({
      client,
      finalized,
      cacheSize: options.cacheSize ?? 10_000,
      shareWindowMs: options.shareWindowMs,
      onCacheLookup: options.observe?.cacheLookup ? (hit) => options.observe?.cacheLookup?.(hit) : undefined,
    }),
    validators: paramValidators(doc),
    discover: () => doc,
    maxBatchSize: options.maxBatchSize ?? 100,
    onCall: options.observe ? (m, code, s) => options.observe?.call(m, code, s) : undefined,
  });

  const reject = (res: ServerResponse, status: number, err: RpcError): void => {
    options.observe?.call('invalid', err.code, 0);
    send(res, status, failure(null, err));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', 'POST, OPTIONS');
      res.statusCode = 204;
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST, OPTIONS');
      req.resume();
      reject(res, 405, new RpcError(RpcErrorCode.InvalidRequest, `Invalid Request: HTTP method ${req.method} not allowed, use POST`));
      return;
    }
    const typeProblem = contentTypeProblem(req);
    if (typeProblem) {
      req.resume(); // discard the body
      reject(res, 415, new RpcError(RpcErrorCode.InvalidRequest, `Invalid Request: ${typeProblem}`));
      return;
    }
    let text: string;
    try {
      text = await readRawBody(req, maxBodyBytes, options.bodyTimeoutMs ?? 10_000);
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        res.setHeader('Connection', 'close');
        reject(res, 413, new RpcError(RpcErrorCode.LimitExceeded, `Request body too large: at most ${maxBodyBytes} bytes allowed`));
      } else if (err instanceof BodyTimeoutError) {
        res.setHeader('Connection', 'close');
        reject(res, 408, new RpcError(RpcErrorCode.InvalidRequest, `Invalid Request: the body was not received within ${err.timeoutMs} ms`));
      }
      return; // aborted by the client: nobody to answer
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      reject(res, 200, new RpcError(RpcErrorCode.ParseError, 'Parse error: request body is not valid JSON'));
      return;
    }
    const response = await dispatcher.dispatch(body);
    if (response === null) {
      res.statusCode = 204;
      res.end();
      return;
    }
    send(res, 200, response);
  }

  return (req, res) => {
    handle(req, res).catch(() => {
      // Never a stack trace: a JSON-RPC internal error, or a cut connection if already answering.
      if (res.headersSent) res.destroy();
      else send(res, 500, failure(null, new RpcError(RpcErrorCode.InternalError, 'Internal error')));
    });
  };
}

function send(res: ServerResponse, status: number, payload: JsonRpcResponse | JsonRpcResponse[]): void {
  const body = JSON.stringify(payload);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

// Only application/json in UTF-8 without content coding is accepted.
function contentTypeProblem(req: IncomingMessage): string | null {
  const header = req.headers['content-type'];
  if (!header) return 'Content-Type must be application/json';
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return `Content-Type must be application/json, got ${type?.slice(0, 64)}`;
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replaceAll('"', '');
  if (charset && charset !== 'utf-8' && charset !== 'utf8') return `charset must be utf-8, got ${charset.slice(0, 32)}`;
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding.toLowerCase() !== 'identity') return `Content-Encoding ${encoding.slice(0, 32)} is not supported`;
  return null;
}
