import { createServer, Server, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answerClientError, MAX_URL_BYTES, uriTooLong } from './answerClientError.ts';
import { writeProblem } from './problem.ts';

export type HttpServer = { server: Server; url: string; close(): Promise<void> };

export type HttpServerOptions = {
  port: number;
  host: string;
  /** Longest wait for in-flight requests after close(); what is left is then cut. */
  drainMs?: number;
  /** After close(), how long idle keep-alive connections stay open for requests already on their way. */
  idleGraceMs?: number;
  /** Longest time to receive a request's headers (Node answers 408 beyond it). */
  headersTimeoutMs?: number;
  /** Longest time to receive a whole request, body included (408 beyond it). */
  requestTimeoutMs?: number;
};

/**
 * Listens on host:port. close() drains without cutting anything a client already sent:
 *  - the listening socket closes at once (new connections are refused);
 *  - every answer from then on says `Connection: close`, so each keep-alive connection ends after
 *    its current request, in-flight ones included;
 *  - idle keep-alive connections stay open `idleGraceMs` for requests already on the wire, then
 *    close; the process stops as soon as the last connection has ended, and what is still open
 *    after `drainMs` is cut.
 * Requests Node refuses before any handler runs (headers too large, malformed, too slow) are
 * answered with problem+json.
 */
export async function startHttpServer(handler: RequestListener, options: HttpServerOptions): Promise<HttpServer> {
  let draining = false;
  // Tracked per connection, not per request: a keep-alive connection carries many requests.
  const sockets = new Set<Socket>();
  // How often Node checks the header and request timeouts (its default, 30 s, would let a slow
  // client overstay them by that much).
  const checkEveryMs = Math.max(50, Math.min(2000, Math.floor((options.headersTimeoutMs ?? 20_000) / 4)));
  const server = createServer({ connectionsCheckingInterval: checkEveryMs }, (req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    // A URL longer than the limit is 414 whatever its route, before the lanes or Express see it
    // (one longer than Node's header limit is answered by answerClientError, 414 as well).
    if ((req.url?.length ?? 0) > MAX_URL_BYTES) {
      res.setHeader('Cache-Control', 'no-store');
      writeProblem(res, uriTooLong());
      return;
    }
    handler(req, res);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 65_000; // longer than common load balancer idle timeouts
  server.headersTimeout = options.headersTimeoutMs ?? 20_000;
  server.requestTimeout = options.requestTimeoutMs ?? 60_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;

  function close(): Promise<void> {
    draining = true;
    // The response a connection is answering now (Node's `_httpMessage`), told to close after it.
    for (const socket of sockets) {
      const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (res && !res.headersSent) res.shouldKeepAlive = false;
    }
    return new Promise<void>((resolve) => {
      const cut = setTimeout(() => server.closeAllConnections(), options.drainMs ?? 10_000);
      const idle = setTimeout(() => server.closeIdleConnections(), options.idleGraceMs ?? 500);
      // net.Server's close stops listening and waits for the connections to end; http.Server's
      // own close would also drop idle keep-alive connections at once, cutting requests in transit.
      netClose(server, () => {
        clearTimeout(cut);
        clearTimeout(idle);
        resolve();
      });
    });
  }

  return { server, url: `http://${shownHost}:${port}`, close };
}

/** Stops listening without touching open connections; `done` runs once every connection ended. */
function netClose(server: Server, done: () => void): void {
  const netServerClose = Object.getPrototypeOf(Server.prototype).close as (this: Server, cb: () => void) => Server;
  netServerClose.call(server, done);
}
