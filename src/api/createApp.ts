import compression from 'compression';
import cors from 'cors';
import type { RequestListener } from 'node:http';
import express, { type RequestHandler, type Router } from 'express';
import { migrationsApplied } from '../db/index.ts';
import { openapiSpecPath } from '../spec/specPaths.ts';
import type { ApiDeps } from './ApiDeps.ts';
import { acceptsGzip } from './cache/acceptsGzip.ts';
import type { ResponseCache } from './cache/responseCache.ts';
import { errorHandler } from './errorHandler.ts';
import { corsOptions } from './headers/securityHeaders.ts';
import { only, setHeaders, type HeaderList } from './headers/staticHeaders.ts';
import type { ClientRateLimiter } from './limits/createClientRateLimiter.ts';
import type { Metrics } from './observability/createMetrics.ts';
import { ignoreUndeclaredQuery } from './ignoreUndeclaredQuery.ts';
import { healthRouter, type ReadinessCheck } from './observability/healthRouter.ts';
import { requestContext } from './observability/requestContext.ts';
import { methodNotAllowed } from './methodNotAllowed.ts';
import { mountOperations } from './operations/mountOperations.ts';
import { strictQuery } from './strictQuery.ts';
import { useOpenApiRequestValidator } from './validation/openApiRequestValidator.ts';

/** Leaves gzip as the only coding compression() may choose (it would prefer br or deflate). */
const gzipOnly: RequestHandler = (req, _res, next) => {
  req.headers['accept-encoding'] = 'gzip';
  next();
};

export type AppParts = ApiDeps & {
  metrics: Metrics;
  /** The headers of every answer (security, CORS, Vary), the same as the lanes send. */
  headers: HeaderList;
  /** Filled with every 200 answer of the cacheable operations; served by the fast lane in front. */
  responseCache: ResponseCache;
  limiter?: ClientRateLimiter;
  /** Routers outside the OpenAPI document (docs, demo logos), mounted before validation. */
  routers?: Router[];
  /** The JSON-RPC endpoint (POST /rpc): a plain request listener, also served in front of Express. */
  rpc?: { path: string; handler: RequestListener };
  /** Readiness checks besides the database and its migrations (indexer lag, chain node). */
  readiness?: Record<string, ReadinessCheck>;
  /** /readyz adds each failed check's whole error, addresses included (an operator's choice; off by default). */
  readinessErrors?: boolean;
  /** Express "trust proxy": how many proxies (or which) sit in front, for client IPs. */
  trustProxy?: boolean | number | string;
  /** Refuse query parameters an operation does not declare (a 400 naming each) instead of ignoring them. */
  strictQueryParameters?: boolean;
};

/**
 * The Express application behind the lanes (createHttpHandler): every request the lanes do not
 * answer comes here, where express-openapi-validator is the validator of record for every
 * bound of the spec. HEAD is validated and routed as the GET it mirrors (Node drops the body).
 */
export function createApp(parts: AppParts): express.Express {
  const { db, logger, metrics } = parts;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags come from the response cache, computed once per data version
  app.set('query parser', 'simple'); // no nested objects: page[a]=1 or addresses[]= are unknown parameters
  app.set('trust proxy', parts.trustProxy ?? false);

  app.use(requestContext(logger, metrics));
  app.use(setHeaders(parts.headers)); // computed once
  app.options(/.*/, cors(corsOptions));
  // gzip or nothing, negotiated as the response cache does, so both paths encode alike.
  app.use(only((req) => acceptsGzip(req.headers['accept-encoding']), gzipOnly, compression()));
  const health = healthRouter({
    registry: metrics.registry,
    exposeErrors: parts.readinessErrors,
    checks: {
      database: async () => void (await db.query('SELECT 1')),
      migrations: async () => {
        if (!(await migrationsApplied(db))) throw new Error('migrations are not all applied');
      },
      ...parts.readiness,
    },
  });
  app.use(health);
  if (parts.limiter) app.use(parts.limiter.middleware);
  const rpc = parts.rpc;
  if (rpc) app.all(rpc.path, (req, res) => rpc.handler(req, res));
  for (const router of parts.routers ?? []) app.use(router);
  app.use(methodNotAllowed([health, ...(parts.routers ?? [])]));
  // The spec declares GETs; a HEAD is the same request without the body (Node drops the body of
  // a response to HEAD whatever is written, and Express routes HEAD to GET routes).
  app.use((req, _res, next) => {
    if (req.method === 'HEAD') req.method = 'GET';
    next();
  });
  // Undeclared parameters are dropped and named (X-Ignored-Parameters) unless the operator asks
  // for strict refusal; then express-openapi-validator refuses them, as every malformed query.
  if (!parts.strictQueryParameters) app.use(ignoreUndeclaredQuery());
  app.use(strictQuery(openapiSpecPath));
  useOpenApiRequestValidator(app);
  mountOperations(app, parts, parts.responseCache.capture);
  app.use(errorHandler(logger));
  return app;
}
