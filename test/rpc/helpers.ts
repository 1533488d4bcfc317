// Shared helpers for the /rpc tests: a scriptable stub upstream node, an express app serving
// the router on 127.0.0.1:0, and a raw POST helper that returns status, headers and text.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createRpcRouter, type RpcRouterOptions } from '../../src/rpc/index.ts';

export interface StubCall {
  method: string;
  params: unknown[];
}

/** What the stub does for one upstream request. */
export type StubReply =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } }
  | { status: number; body: string }
  | { hang: true }
  | { delayMs: number; then: StubReply };

export interface StubUpstream {
  url: string;
  port: number;
  calls: StubCall[];
  respond: (call: StubCall) => StubReply;
  count(method: string): number;
  close(): Promise<void>;
}

export async function startStubUpstream(respond: (call: StubCall) => StubReply, port = 0): Promise<StubUpstream> {
  const sockets = new Set<import('node:net').Socket>();
  const stub: StubUpstream = {
    url: '',
    port: 0,
    calls: [],
    respond,
    count: (method) => stub.calls.filter((c) => c.method === method).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; method: string; params?: unknown[] };
      const call = { method: msg.method, params: msg.params ?? [] };
      stub.calls.push(call);
      const answer = (reply: StubReply): void => {
        if ('hang' in reply) return;
        if ('delayMs' in reply) {
          setTimeout(() => answer(reply.then), reply.delayMs);
          return;
        }
        if ('status' in reply) {
          res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...reply }));
      };
      answer(stub.respond(call));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  stub.port = (server.address() as AddressInfo).port;
  stub.url = `http://127.0.0.1:${stub.port}`;
  return stub;
}

export interface RpcServer {
  url: string;
  close(): Promise<void>;
}

export async function startRpcServer(options: RpcRouterOptions): Promise<RpcServer> {
  const app = express();
  app.use(createRpcRouter(options));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/rpc`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawResponse {
  status: number;
  contentType: string | null;
  text: string;
  headers: Headers;
  /** Parsed body; throws if the body is not JSON. */
  json(): unknown;
}

export async function post(url: string, body: unknown, init: { headers?: Record<string, string>; raw?: boolean; method?: string } = {}): Promise<RawResponse> {
  const res = await fetch(url, {
    method: init.method ?? 'POST',
    headers: init.headers ?? { 'content-type': 'application/json' },
    body: init.method === 'GET' || init.method === 'HEAD' ? undefined : init.raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    text,
    headers: res.headers,
    json: () => JSON.parse(text) as unknown,
  };
}

/** A port on 127.0.0.1 with nothing listening (it was just released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A complete legacy transaction as a node returns it (all the fields the spec's schema names). */
export function sampleTransaction(hash: string, blockNumber = '0x5') {
  return {
    blockHash: `0x${'11'.repeat(32)}`, blockNumber, from: `0x${'22'.repeat(20)}`, gas: '0x5208', gasPrice: '0x1',
    hash, input: '0x', nonce: '0x0', to: `0x${'33'.repeat(20)}`, transactionIndex: '0x0', value: '0x0', type: '0x0',
    chainId: '0x1', v: '0x25', r: '0x1', s: '0x2',
  };
}

/** A stub node that knows one transaction and reports block 0x10 as finalized. */
export function startOneTransactionNode(tx: { hash: string }): Promise<StubUpstream> {
  return startStubUpstream((call) =>
    call.method === 'eth_getTransactionByHash' && call.params[0] === tx.hash
      ? { result: tx }
      : call.method === 'eth_getBlockByNumber'
        ? { result: { number: '0x10', hash: `0x${'44'.repeat(32)}` } }
        : { result: null },
  );
}
