import { randomUUID } from 'node:crypto';
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

type Routed = { route?: { path?: string }; baseUrl: string; openapi?: { expressRoute?: string } };

/** The route template ("/tokens/:contractAddress"), never the raw URL: bounded label cardinality. */
function routeLabel(req: Routed, res: { locals: { route?: string } }): string {
  if (req.route?.path) return `${req.baseUrl}${req.route.path}`;
  return res.locals.route ?? req.openapi?.expressRoute ?? 'unmatched';
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane), a child logger that
 * stamps it on every line, an X-Request-Id response header, one access log line and a latency
 * sample labelled by route template, never by raw URL (bounded label cardinality).
 */
export function requestContext(logger: Logger, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    req.id = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    req.log = logger.child({ reqId: req.id });
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req, res);
      metrics.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      req.log.info(
        { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(seconds * 1e4) / 10 },
        'request',
      );
    });
    next();
  };
}
