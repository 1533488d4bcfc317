import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Metrics } from './createMetrics.ts';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

const SAFE_ID = /^[\w.:-]{1,128}$/;
/**
 * URLs longer than this are logged cut, with their full length: a 100-address query is kilobytes
 * long, and logging it whole halved that case's throughput (docs/performance.md). The request
 * id still ties the line to the client.
 */
export const LOGGED_URL_MAX = 256;

/** The access log's fields for a URL: whole when short, else cut with its length. */
export function loggedUrl(url: string | undefined): { url: string | undefined; urlLength?: number } {
  if (url === undefined || url.length <= LOGGED_URL_MAX) return { url };
  return { url: `${url.slice(0, LOGGED_URL_MAX)}…`, urlLength: url.length };
}

/** The caller's X-Request-Id when it is sane, a new UUID otherwise; echoed on the response. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** On finish: one access log line with the request id and a latency sample by route template. */
export function observeRequest(
  logger: Logger,
  metrics: Metrics,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  route: () => string,
): void {
  const started = process.hrtime.bigint();
  const method = req.method ?? 'GET'; // as received: Express serves a HEAD as its GET
  const url = req.url; // as received: Express answers a query without its undeclared parameters
  res.on('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.httpDuration.observe({ method, route: route(), status: String(res.statusCode) }, seconds);
    logger.info(
      { reqId: id, method, ...loggedUrl(url), status: res.statusCode, ms: Math.round(seconds * 1e4) / 10 },
      'request',
    );
  });
}

type Routed = { route?: { path?: string }; baseUrl: string; openapi?: { expressRoute?: string } };

/** The route template ("/tokens/:contractAddress"), never the raw URL: bounded label cardinality. */
function routeLabel(req: Routed, res: { locals: { route?: string } }): string {
  if (req.route?.path) return `${req.baseUrl}${req.route.path}`;
  return res.locals.route ?? req.openapi?.expressRoute ?? 'unmatched';
}

/**
 * Gives every request an id, a logger that stamps it on every line (made only when a handler
 * logs), an X-Request-Id response header, one access log line and a latency sample.
 */
export function requestContext(logger: Logger, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const id = assignRequestId(req, res);
    req.id = id;
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { get: () => (child ??= logger.child({ reqId: id })), configurable: true });
    observeRequest(logger, metrics, req, res, id, () => routeLabel(req as unknown as Routed, res));
    next();
  };
}
