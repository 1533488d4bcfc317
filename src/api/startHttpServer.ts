import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';

export type HttpServer = { server: Server; url: string; close(): Promise<void> };

/**
 * Listens on host:port. close() stops accepting, lets in-flight requests finish (up to
 * `drainMs`), then drops what is left, so SIGTERM never cuts a response in half.
 */
export async function startHttpServer(
  handler: RequestListener,
  options: { port: number; host: string; drainMs?: number },
): Promise<HttpServer> {
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000; // longer than common load balancer idle timeouts
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  return {
    server,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), options.drainMs ?? 10_000);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
