import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import { createApp, NOT_LIMITED, type AppOptions } from './createApp.ts';
import { createQueryLane } from './lanes/createQueryLane.ts';
import { createFastLane } from './lanes/createFastLane.ts';
import { createMetrics } from './observability/createMetrics.ts';
import { createClientRateLimiter } from './limits/createClientRateLimiter.ts';
import { securityMiddleware } from './headers/securityHeaders.ts';
import { recordHeaders } from './headers/staticHeaders.ts';
import { openapiSpecPath } from '../spec/specPaths.ts';

/**
 * What the HTTP server runs: the Express app, behind the fast lane for cached answers, uncached
 * reads with valid parameters, and the JSON-RPC endpoint, when configured. All share one rate limiter and one metrics registry.
 */
export function createHttpHandler(options: AppOptions): { app: Express; handler: RequestListener } {
  const metrics = options.metrics ?? createMetrics();
  const rateLimiter =
    options.rateLimiter ?? (options.rateLimit ? createClientRateLimiter({ ...options.rateLimit, exempt: NOT_LIMITED }) : undefined);
  const app = createApp({ ...options, metrics, rateLimiter, responseCacheInFront: options.responseCache !== undefined });
  if (!options.responseCache && !options.rpc) return { app, handler: app };
  // Uncached reads skip Express too, except when responses are checked against the spec (tests):
  // those go through express-openapi-validator's response validation.
  const { catalog, prices } = options;
  const lane =
    options.responseCache && catalog && prices && !options.validateResponses
      ? createQueryLane({ ...options, catalog, prices }, openapiSpecPath)
      : undefined;
  const handler = createFastLane(app, {
    cache: options.responseCache,
    lane,
    prefixes: ['/tokens', '/prices'],
    lanePrefixes: ['/supply/'],
    rpc: options.rpc,
    headers: recordHeaders(...securityMiddleware()),
    limiter: rateLimiter,
    logger: options.logger,
    metrics,
    trustProxy: app.get('trust proxy fn') as (addr: string, i: number) => boolean,
  });
  return { app, handler };
}
