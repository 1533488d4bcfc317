import compression from 'compression';
import cors from 'cors';
import type { RequestListener } from 'node:http';
import express, { type Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { migrationsApplied } from '../db/index.ts';
import type { ApiDeps } from './ApiDeps.ts';
import { createTokenCatalog, type TokenCatalog } from '../readModel/tokens/createTokenCatalog.ts';
import { errorHandler } from './errorHandler.ts';
import { getToken } from './handlers/getToken.ts';
import { listTokens } from './handlers/listTokens.ts';
import { getTokenPriceHistory, listPriceHistories } from './handlers/priceHistories.ts';
import { createMetrics, type Metrics } from './observability/createMetrics.ts';
import { healthRouter, type ReadinessCheck } from './observability/healthRouter.ts';
import { createClientRateLimiter, type ClientRateLimitOptions, type ClientRateLimiter } from './limits/createClientRateLimiter.ts';
import { createPriceHistoryStore, type PriceHistoryStore } from '../readModel/prices/createPriceHistoryStore.ts';
import { requestContext } from './observability/requestContext.ts';
import { corsOptions, securityMiddleware } from './headers/securityHeaders.ts';
import type { ResponseCache } from './cache/responseCache.ts';
import { only, staticHeaders } from './headers/staticHeaders.ts';
import { openapiSpecPath } from '../spec/specPaths.ts';
import { strictIntegerQuery } from './strictIntegerQuery.ts';
import { getCirculatingSupply, getTotalSupply } from './handlers/supply.ts';

export type AppOptions = Omit<ApiDeps, 'catalog' | 'prices'> & {
  /** The in-memory token list; by default one that checks the data version on every request. */
  catalog?: TokenCatalog;
  /** The in-memory price histories; by default a store that checks the data version on every request. */
  prices?: PriceHistoryStore;
  /** Check every response against spec/openapi.yaml (tests); a mismatch becomes a 500. */
  validateResponses?: boolean;
  /** Routers outside the OpenAPI document (docs, demo logos), mounted before validation. */
  routers?: Router[];
  /** The JSON-RPC endpoint (POST /rpc): a plain request listener, also served in front of Express. */
  rpc?: { path: string; handler: RequestListener };
  metrics?: Metrics;
  /** Readiness checks besides the database and its migrations (indexer lag, chain node). */
  readiness?: Record<string, ReadinessCheck>;
  /** Per-IP limits; none when absent. */
  rateLimit?: ClientRateLimitOptions;
  /** A limiter already built from `rateLimit` (shared with the fast lane). */
  rateLimiter?: ClientRateLimiter;
  /** Serialised answers kept between data updates; none when absent. */
  responseCache?: ResponseCache;
  /** The cache's hits are served in front of Express (the fast lane): only fill it here. */
  responseCacheInFront?: boolean;
  /** Express "trust proxy": how many proxies (or which) sit in front, for client IPs. */
  trustProxy?: boolean | number | string;
};

export const NOT_LIMITED = ['/healthz', '/readyz', '/metrics'];

/** The HTTP application: spec-validated REST at the root, JSON-RPC and extra routers beside it. */
export function createApp(appOptions: AppOptions): express.Express {
  const options: ApiDeps & AppOptions = {
    ...appOptions,
    catalog: appOptions.catalog ?? createTokenCatalog({ db: appOptions.db, staleMs: 0 }),
    prices: appOptions.prices ?? createPriceHistoryStore({ db: appOptions.db, staleMs: 0, now: appOptions.now }),
  };
  const { db, logger } = options;
  const metrics = options.metrics ?? createMetrics();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags come from the response cache, computed once per data version
  app.set('query parser', 'simple'); // no nested objects: page[a]=1 or addresses[]= are unknown parameters
  app.set('trust proxy', options.trustProxy ?? false);

  app.use(requestContext(logger, metrics));
  app.use(staticHeaders(...securityMiddleware())); // computed once
  app.options(/.*/, cors(corsOptions));
  app.use(only((req) => req.headers['accept-encoding'] !== undefined, compression()));
  app.use(
    healthRouter({
      registry: metrics.registry,
      checks: {
        database: async () => void (await db.query('SELECT 1')),
        migrations: async () => {
          if (!(await migrationsApplied(db))) throw new Error('migrations are not all applied');
        },
        ...options.readiness,
      },
    }),
  );
  const limiter = options.rateLimiter ?? (options.rateLimit ? createClientRateLimiter({ ...options.rateLimit, exempt: NOT_LIMITED }) : undefined);
  if (limiter) app.use(limiter.middleware);
  if (options.responseCache && !options.responseCacheInFront) app.use(['/tokens', '/prices'], options.responseCache.middleware);
  const rpc = options.rpc;
  if (rpc) app.all(rpc.path, (req, res) => rpc.handler(req, res));
  for (const router of options.routers ?? []) app.use(router);
  app.use(strictIntegerQuery(openapiSpecPath));
  app.use(
    OpenApiValidator.middleware({
      apiSpec: openapiSpecPath,
      validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
      validateResponses: options.validateResponses ?? false,
      validateApiSpec: false,
    }),
  );
  const cached = options.responseCache ? [options.responseCache.capture] : [];
  app.get('/tokens', ...cached, listTokens(options));
  app.get('/tokens/:contractAddress', ...cached, getToken(options));
  app.get('/prices', ...cached, listPriceHistories(options));
  app.get('/prices/:contractAddress', ...cached, getTokenPriceHistory(options));
  app.get('/supply/total', getTotalSupply(options));
  app.get('/supply/circulating', getCirculatingSupply(options));
  app.use(errorHandler(logger));
  return app;
}
