// A JSON-RPC node an indexer with no factories can follow: a chain of `head` empty blocks (hashes
// derived from the number, 12 s apart) that grows on demand, no logs, and a token list served on
// GET. It records every request's Authorization header and, when `authorizations` are given,
// answers only requests carrying one of them (401 otherwise), as a hosted provider does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type IndexableNode = {
  server: Server;
  /** http://127.0.0.1:port */
  url: string;
  /** The chain's head; tests raise it to make new blocks. */
  head: number;
  /** The Authorization header of every request (undefined when none). */
  authorizations: (string | undefined)[];
  /** Every method asked, in order. */
  methods: string[];
  close(): Promise<void>;
};

const CHAIN_ID = 59144;
const hex = (n: number) => `0x${n.toString(16)}`;
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, 'a')}`;
const block = (n: number) => ({
  number: hex(n), hash: hashOf(n), parentHash: n === 0 ? `0x${'0'.repeat(64)}` : hashOf(n - 1),
  timestamp: hex(1_700_000_000 + n * 12), transactions: [], logsBloom: `0x${'0'.repeat(512)}`,
});

export async function startIndexableNode(options: { head?: number; requireAuthorization?: readonly string[]; tokenList?: unknown } = {}): Promise<IndexableNode> {
  const node: Omit<IndexableNode, 'server' | 'url' | 'close'> = { head: options.head ?? 20, authorizations: [], methods: [] };
  const answer = (call: { id: unknown; method: string; params?: unknown[] }) => {
    node.methods.push(call.method);
    const params = call.params ?? [];
    const result = (() => {
      switch (call.method) {
        case 'eth_chainId': return hex(CHAIN_ID);
        case 'eth_blockNumber': return hex(node.head);
        case 'eth_getBlockByNumber': {
          const tag = params[0];
          const n = tag === 'latest' || tag === 'finalized' || tag === 'safe' ? node.head : Number(tag);
          return n <= node.head ? block(n) : null;
        }
        case 'eth_getLogs': return [];
        default: return null;
      }
    })();
    return { jsonrpc: '2.0', id: call.id, result };
  };
  const server = createServer((req, res) => {
    node.authorizations.push(req.headers.authorization);
    if (options.requireAuthorization && !options.requireAuthorization.includes(req.headers.authorization ?? '')) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized');
      return;
    }
    if (req.method === 'GET') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(options.tokenList ?? { name: 'test', tokens: [] }));
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const parsed = JSON.parse(body) as Parameters<typeof answer>[0] | Parameters<typeof answer>[0][];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(node, {
    server,
    url,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
}
