// Raw JSON-RPC 2.0 over HTTP client for the upstream execution client. It returns the node's
// `result` JSON untouched (no ethers/viem formatting) so the /rpc proxy can pass every field on.
import {
  UpstreamConnectionError,
  UpstreamHttpError,
  UpstreamInvalidResponseError,
  UpstreamRpcError,
  UpstreamTimeoutError,
} from './jsonRpcClient.errors.ts';
import { createJsonPoster } from './postJson.ts';

export interface JsonRpcClientOptions {
  url: string;
  /** Whole-request timeout (connect + response body). Default 10000 ms. */
  timeoutMs?: number;
  /** Called once per request, e.g. to feed a Prometheus histogram. */
  observe?: (method: string, ok: boolean, seconds: number) => void;
}

export interface JsonRpcClient {
  readonly url: string;
  /** Resolves with the node's `result`; rejects with one of the Upstream*Error classes. */
  request(method: string, params?: readonly unknown[]): Promise<unknown>;
}

export function createJsonRpcClient(options: JsonRpcClientOptions): JsonRpcClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  let nextId = 1;
  const post = createJsonPoster(options.url, timeoutMs);

  async function send(method: string, params: readonly unknown[]): Promise<unknown> {
    const id = nextId++;
    let text: string;
    let status: number;
    try {
      ({ status, text } = await post(JSON.stringify({ jsonrpc: '2.0', id, method, params })));
    } catch (err) {
      throw toTransportError(method, timeoutMs, err);
    }
    if (status < 200 || status > 299) throw new UpstreamHttpError(method, status, { cause: text.slice(0, 200) });
    return parseResponse(method, id, text);
  }

  return {
    url: options.url,
    async request(method, params = []) {
      const started = performance.now();
      let ok = false;
      try {
        const result = await send(method, params);
        ok = true;
        return result;
      } finally {
        options.observe?.(method, ok, (performance.now() - started) / 1000);
      }
    },
  };
}

function toTransportError(method: string, timeoutMs: number, err: unknown): Error {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new UpstreamTimeoutError(method, timeoutMs, { cause: err });
  // socket errors carry their code (ECONNREFUSED, ECONNRESET, ...), directly or on a cause
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  const raw = e?.code ?? e?.cause?.code;
  const code = typeof raw === 'string' ? raw : undefined;
  return new UpstreamConnectionError(method, code, { cause: err });
}

function parseResponse(method: string, id: number, text: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new UpstreamInvalidResponseError(method, 'body is not JSON', { cause: err });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UpstreamInvalidResponseError(method, 'body is not a JSON object');
  }
  const msg = body as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  if (msg.jsonrpc !== '2.0') throw new UpstreamInvalidResponseError(method, 'jsonrpc is not "2.0"');
  if ('error' in msg && msg.error !== undefined && msg.error !== null) {
    const e = msg.error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof e !== 'object' || !Number.isInteger(e.code) || typeof e.message !== 'string') {
      throw new UpstreamInvalidResponseError(method, 'malformed error object');
    }
    throw new UpstreamRpcError(method, { code: e.code as number, message: e.message, data: e.data });
  }
  if (msg.id !== id) throw new UpstreamInvalidResponseError(method, `id ${JSON.stringify(msg.id)} does not match request id ${id}`);
  if (!('result' in msg)) throw new UpstreamInvalidResponseError(method, 'neither result nor error');
  return msg.result;
}
