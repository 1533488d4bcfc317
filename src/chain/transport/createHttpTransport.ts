// The one way this service sends JSON-RPC to a node: POST over a keep-alive pool of node:http(s)
// connections, the whole exchange (connect, answer, body) within a timeout. Credentials in the
// URL (https://user:key@host/…) are sent as the Basic Authorization header the URL implies and
// never appear in an error. Measured faster than fetch (undici's web streams cost about a
// millisecond per call, most of what a proxied lookup adds over the node itself).
import http from 'node:http';
import https from 'node:https';
import { NodeUnreachableError, RpcTimeoutError } from '../errors.ts';
import { redactUrl } from '../../config/redactUrl.ts';

export type HttpAnswer = {
  status: number;
  text: string;
  /** The answer's Retry-After in milliseconds (seconds or an HTTP date), null when absent. */
  retryAfterMs: number | null;
};

export type HttpTransport = {
  /** scheme://host:port of the node: what logs and answers may show. */
  readonly endpoint: string;
  /** Sends one JSON-RPC body (`method` names it in errors); rejects with RpcTimeoutError or NodeUnreachableError. */
  post(body: string, method: string, timeoutMs: number): Promise<HttpAnswer>;
  close(): void;
};

/**
 * `reuseConnections: false` opens a connection per request (a readiness probe: it says whether
 * the node can be reached now, not whether an old connection still looks open).
 */
export function createHttpTransport(url: string, options: { reuseConnections?: boolean } = {}): HttpTransport {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:';
  const authorization =
    parsed.username || parsed.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`
      : undefined;
  const target = {
    protocol: parsed.protocol,
    hostname: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port || (secure ? 443 : 80),
    path: `${parsed.pathname}${parsed.search}`,
  };
  const keepAlive = options.reuseConnections ?? true;
  const agent = secure
    ? new https.Agent({ keepAlive, maxSockets: 64, scheduling: 'lifo' })
    : new http.Agent({ keepAlive, maxSockets: 64, scheduling: 'lifo' });
  // After a timeout or a lost connection the idle connections are not trusted: opened before a
  // partition, they look open and would hold the next requests until their timeout after the node
  // is back. They are closed, and the next requests connect anew.
  const dropIdle = () => {
    for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  };
  const send = secure ? https.request : http.request;

  return {
    endpoint: redactUrl(url),
    post: (body, method, timeoutMs) =>
      new Promise<HttpAnswer>((resolve, reject) => {
        let settled = false;
        const fail = (error: Error) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          dropIdle();
          reject(error);
        };
        const req = send({
          ...target,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(authorization ? { authorization } : {}),
          },
        });
        const timer = setTimeout(() => {
          fail(new RpcTimeoutError(method, timeoutMs));
          req.destroy();
        }, timeoutMs);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), retryAfterMs: parseRetryAfter(res.headers['retry-after']) });
          });
          res.on('error', (err) => fail(unreachable(method, err)));
          res.on('aborted', () => fail(new NodeUnreachableError(method, 'ECONNRESET')));
        });
        req.on('error', (err) => fail(unreachable(method, err)));
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}

// Socket errors carry their code (ECONNREFUSED, ECONNRESET, ENOTFOUND, ...); the message, which
// names the address, stays in the cause for logs of this process only.
function unreachable(method: string, err: Error): NodeUnreachableError {
  const raw = (err as { code?: unknown }).code;
  return new NodeUnreachableError(method, typeof raw === 'string' ? raw : undefined, { cause: err });
}

/** Retry-After as delay-seconds or an HTTP date, in milliseconds from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(raw)) return Math.round(Number(raw) * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
