// An HTTP JSON-RPC proxy in front of the in-process chain that misbehaves on purpose.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Misbehaviour = (body: { method: string; params: unknown[]; id: unknown }, count: number) =>
  | { status: number; body?: unknown; delayMs?: number }
  | null;

export async function startProxy(upstream: string, misbehave: Misbehaviour) {
  let count = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = JSON.parse(text) as { method: string; params: unknown[]; id: unknown };
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
