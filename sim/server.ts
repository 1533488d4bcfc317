// The simulated node's HTTP server: JSON-RPC single calls and batches, answered by the chain model
// behind the provider profile, with requests counted by method (each batch item counts).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimChain } from './chain.ts';
import { createRateLimiter, logRangeError, NO_PROVIDER, type ProviderProfile } from './provider.ts';
import { createMethods, RpcError } from './rpc.ts';

type Request = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };

export type SimServer = {
  url: string;
  /**
   * `cpuMs`: CPU time spent answering (this process, all answers, its garbage collector's helper
   * threads included); `answerMs`: the time the answers took from request to answer text, on this
   * process's thread.
   */
  stats(): { byMethod: Record<string, number>; requests: number; throttled: number; logRangeRefusals: number; httpRequests: number; cpuMs: number; answerMs: number };
  close(): Promise<void>;
};

export async function startSimServer(chain: SimChain, options: { port?: number; host?: string; provider?: ProviderProfile } = {}): Promise<SimServer> {
  const provider = options.provider ?? NO_PROVIDER;
  const { methods, getLogsJson } = createMethods(chain, { blockTimestamp: provider.blockTimestamp });
  const limiter = createRateLimiter(provider.rps);
  const byMethod: Record<string, number> = {};
  const counters = { requests: 0, throttled: 0, logRangeRefusals: 0, httpRequests: 0, cpuMs: 0, answerMs: 0 };

  const envelope = (id: unknown, body: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},${body}}`;

  /** One call's answer as JSON text. */
  function answer(req: Request): string {
    const id = req.id ?? null;
    if (req.jsonrpc !== '2.0' || typeof req.method !== 'string') return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } });
    const method = req.method;
    byMethod[method] = (byMethod[method] ?? 0) + 1;
    const params = Array.isArray(req.params) ? req.params : [];
    try {
      if (method === 'eth_getLogs') return envelope(id, `"result":${logs(params)}`);
      const run = methods[method];
      if (!run) return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist/is not available` } });
      return JSON.stringify({ jsonrpc: '2.0', id, result: run(params) });
    } catch (error) {
      if (error instanceof RpcError) return JSON.stringify({ jsonrpc: '2.0', id, error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } });
      return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: `internal error: ${(error as Error).message}` } });
    }
  }

  /** eth_getLogs under the hosted providers' rule: a range of at most maxRange blocks, or any range with at most maxResults logs. */
  function logs(params: unknown[]): string {
    const filter = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
    if (filter.blockHash || !Number.isFinite(provider.maxRange)) return getLogsJson(filter as never).json;
    const from = filter.fromBlock?.startsWith('0x') ? Number(filter.fromBlock) : chain.head;
    const to = filter.toBlock?.startsWith('0x') ? Math.min(Number(filter.toBlock), chain.head) : chain.head;
    if (to - from + 1 <= provider.maxRange) return getLogsJson(filter as never).json;
    const found = getLogsJson(filter as never, provider.maxResults);
    if (found.count > provider.maxResults) {
      counters.logRangeRefusals++;
      const e = logRangeError(from, provider.maxRange, provider.maxResults);
      throw new RpcError(e.code, e.message);
    }
    return found.json;
  }

  const server: Server = createServer((req, res) => {
    // GET /stats: the head and the counters, for a bench watching a live run (not a provider request, not counted)
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ head: chain.head, byMethod, ...counters }));
      return;
    }
    void readBody(req).then(async (body) => {
      counters.httpRequests++;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
        return;
      }
      const items = Array.isArray(parsed) ? parsed.length : 1;
      counters.requests += items;
      if (provider.rtt > 0) await new Promise((r) => setTimeout(r, provider.rtt));
      if (!limiter.take(items)) {
        counters.throttled += items;
        const error = { code: 429, message: `Too Many Requests: your app has exceeded its ${provider.rps} requests per second capacity` };
        const first = Array.isArray(parsed) ? (parsed[0] as Request | undefined) : (parsed as Request);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(limiter.retryAfter(items)) });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: first?.id ?? null, error }));
        return;
      }
      const [started, startedAt] = [process.cpuUsage(), performance.now()];
      const text = Array.isArray(parsed) ? `[${parsed.map((r) => answer(r as Request)).join(',')}]` : answer(parsed as Request);
      counters.answerMs += performance.now() - startedAt;
      const spent = process.cpuUsage(started);
      counters.cpuMs += (spent.user + spent.system) / 1000;
      res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ byMethod: { ...byMethod }, ...counters }),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
