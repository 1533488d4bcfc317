// An HTTP JSON-RPC proxy in front of the in-process chain that misbehaves on purpose.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Misbehaviour = (body: { method: string; params: unknown[]; id: unknown }, count: number) =>
  | { status: number; body?: unknown; delayMs?: number }
  | null;

export async function startProxy(
  upstream: string,
  misbehave: Misbehaviour,
  options: { refuseBatches?: boolean; onHeaders?: (headers: IncomingMessage['headers']) => void } = {},
) {
  let count = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    options.onHeaders?.(req.headers);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = JSON.parse(text) as { method: string; params: unknown[]; id: unknown };
    if (Array.isArray(body) && options.refuseBatches) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } }));
      return;
    }
    const bad = Array.isArray(body) ? null : misbehave(body, ++count);
    if (bad) {
      if (bad.delayMs) await new Promise((r) => setTimeout(r, bad.delayMs));
      res.writeHead(bad.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(bad.body ?? { jsonrpc: '2.0', id: body.id, error: { code: -32603, message: 'upstream broken' } }));
      return;
    }
    const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(await answer.text());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** One HTTP request a stub node received: when (performance.now()), its calls, and what it answered. */
export type Arrival = { at: number; methods: string[]; status: number };

export type StubNodeAnswer = { status: 429; retryAfter?: string } | { delayMs?: number } | null;

/**
 * A JSON-RPC node stub that records every HTTP request it receives (batches included), counts
 * how many are in flight at once, and answers each call with `result(method)` unless `decide`
 * says otherwise (a 429, or a delay).
 */
export async function startStubNode(options: { result?: (method: string) => unknown; decide?: (arrival: Arrival, n: number) => StubNodeAnswer } = {}) {
  const arrivals: Arrival[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const at = performance.now();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string } | { id: number; method: string }[];
    const calls = Array.isArray(body) ? body : [body];
    const arrival: Arrival = { at, methods: calls.map((c) => c.method), status: 200 };
    arrivals.push(arrival);
    const answer = options.decide?.(arrival, arrivals.length) ?? null;
    if (answer && 'delayMs' in answer && answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    inFlight--;
    if (answer && 'status' in answer && answer.status === 429) {
      arrival.status = 429;
      res.writeHead(429, { 'content-type': 'application/json', ...(answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}) });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too Many Requests' } }));
      return;
    }
    const reply = calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: options.result?.(c.method) ?? '0x1' }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(Array.isArray(body) ? reply : reply[0]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    maxInFlight: () => maxInFlight,
    /** The most calls (batch items counted) that arrived within any window of `windowMs`. */
    mostCallsInWindow(windowMs = 1000): number {
      let most = 0;
      for (const a of arrivals) {
        const n = arrivals.filter((b) => b.at > a.at - windowMs && b.at <= a.at).reduce((sum, b) => sum + b.methods.length, 0);
        most = Math.max(most, n);
      }
      return most;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
