import type { RequestListener } from 'node:http';
import express from 'express';
import type { Logger } from 'pino';
import { errorHandler } from './errorHandler.ts';
import { methodNotAllowed } from './methodNotAllowed.ts';
import type { Metrics } from './observability/createMetrics.ts';
import { healthRouter, type ReadinessCheck } from './observability/healthRouter.ts';
import { problem, sendProblem } from './problem.ts';

/**
 * What `npm run index` serves on PORT: /healthz (the process answers), /readyz (its checks: the
 * database, the chain node, the indexer's role and checkpoint lag) and /metrics; 405 with Allow
 * for another method on them, 404 problem+json for any other path.
 */
export function createStatusHandler(options: { metrics: Metrics; checks: Record<string, ReadinessCheck>; exposeErrors?: boolean; logger: Logger }): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const health = healthRouter({ registry: options.metrics.registry, checks: options.checks, exposeErrors: options.exposeErrors });
  app.use(health);
  app.use(methodNotAllowed([health]));
  app.use((req, res) => sendProblem(res, problem(404, 'not-found', `No route ${req.method} ${req.path}: the indexer serves /healthz, /readyz and /metrics.`)));
  app.use(errorHandler(options.logger));
  return app;
}
