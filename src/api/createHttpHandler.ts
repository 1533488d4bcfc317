import type { RequestListener } from 'node:http';
import type { Express, Router } from 'express';
import type { Logger } from 'pino';
import type { Database } from '../db/index.ts';
import { createPriceHistoryStore, type PriceHistoryStore } from '../readModel/prices/createPriceHistoryStore.ts';
import type { SupplyService } from '../readModel/supply/createSupplyService.ts';
import { createTokenCatalog, type TokenCatalog } from '../readModel/tokens/createTokenCatalog.ts';
import { createResponseCache, type ResponseCache } from './cache/responseCache.ts';
import { createApp } from './createApp.ts';
import { answerHeaders } from './headers/securityHeaders.ts';
import { createFastLane } from './lanes/createFastLane.ts';
import { createQueryLane } from './lanes/createQueryLane.ts';
import { createClientRateLimiter, type ClientRateLimiter, type ClientRateLimitOptions } from './limits/createClientRateLimiter.ts';
import { createMetrics, type Metrics } from './observability/createMetrics.ts';
import type { ReadinessCheck } from './observability/healthRouter.ts';
import { matchOperation } from './operations/matchOperation.ts';
import { declaredTarget } from './operations/undeclaredQuery.ts';

/** Paths never rate limited: health checks and metrics scrapes. */
export const NOT_LIMITED = ['/healthz', '/readyz', '/metrics'];

export type HttpHandlerOptions = {
  db: Database;
  logger: Logger;
  /** Wall clock of the price endpoints; tests pin it. */
  now?: () => Date;
  /** The token list in memory; by default one that checks the data version on every request. */
  catalog?: TokenCatalog;
  /** The hourly price histories in memory; by default checked on every request too. */
  prices?: PriceHistoryStore;
  /** Network token supply (GET /supply/*); those routes answer 404 when absent. */
  supply?: SupplyService;
  /** Cache-Control max-age of token and price answers, and the bound of the stored answers. */
  cache?: { maxAgeSeconds?: number; maxBytes?: number };
  metrics?: Metrics;
  /** Per-IP limits; none when absent. */
  rateLimit?: ClientRateLimitOptions;
  /** Paths served from memory outside the API (the explorer's page and files), exempt from the limits like NOT_LIMITED. */
  notLimited?: readonly string[];
  /** Express "trust proxy": how many proxies (or which) sit in front, for client IPs. */
  trustProxy?: boolean | number | string;
  /** Routers outside the OpenAPI document (docs, demo logos). */
  routers?: Router[];
  /** The JSON-RPC endpoint (POST /rpc), served in front of Express. */
  rpc?: { path: string; handler: RequestListener };
  /** Readiness checks besides the database and its migrations. */
  readiness?: Record<string, ReadinessCheck>;
  /** /readyz adds each failed check's whole error, addresses included (READYZ_ERROR_DETAILS). */
  readinessErrors?: boolean;
  /**
   * Refuse query parameters an operation does not declare (400) instead of ignoring them and
   * naming them in X-Ignored-Parameters (STRICT_QUERY_PARAMETERS).
   */
  strictQueryParameters?: boolean;
};

export type HttpHandler = {
  /** What the HTTP server runs (and every API test). */
  handler: RequestListener;
  /** The Express application behind the lanes. */
  app: Express;
  catalog: TokenCatalog;
  prices: PriceHistoryStore;
  responseCache: ResponseCache;
  metrics: Metrics;
  limiter: ClientRateLimiter | undefined;
};

/**
 * The one request pipeline, as production runs it and every API test drives it: the fast lane
 * (cached answers, uncached reads whose parameters the spec's schemas accept without doubt, the
 * JSON-RPC endpoint) in front of Express, which answers everything else and validates every
 * request it sees. One rate limiter, one metrics registry, one response cache.
 */
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  const { db, logger } = options;
  const metrics = options.metrics ?? createMetrics();
  const strict = options.strictQueryParameters ?? false;
  const catalog = options.catalog ?? createTokenCatalog({ db, staleMs: 0 });
  const prices = options.prices ?? createPriceHistoryStore({ db, staleMs: 0, now: options.now });
  const responseCache = createResponseCache({
    version: () => catalog.version(),
    servedVersion: () => catalog.heldVersion(),
    maxAgeSeconds: options.cache?.maxAgeSeconds ?? 5,
    maxBytes: options.cache?.maxBytes,
    metrics,
    // Answers are keyed by their declared parameters only: a cache-buster does not miss. With
    // strict refusal, a URL with undeclared parameters is a 400, never stored: keyed as sent.
    keyUrl: strict ? undefined : declaredTarget,
    // An answer that moves with the wall clock (the operation's clock: price histories by the
    // hour, candles by the smallest interval) is keyed by its period too; one built from the
    // price histories by their store's own version as well (it refreshes apart from the
    // catalogue: an answer is never keyed newer than its data).
    clockKey: (url) => {
      const needs = matchOperation(url)?.operation.answer;
      if (!needs) return '';
      const period = needs.clockMs === null ? '' : `${Math.floor((options.now?.() ?? new Date()).getTime() / needs.clockMs)}`;
      return needs.from === 'priceHistories' ? `${period}:${prices.version()}` : period;
    },
  });
  const limiter = options.rateLimit ? createClientRateLimiter({ ...options.rateLimit, exempt: [...NOT_LIMITED, ...(options.notLimited ?? [])] }) : undefined;
  const deps = { db, logger, now: options.now, catalog, prices, supply: options.supply };
  const headers = answerHeaders();
  const app = createApp({ ...deps, metrics, headers, responseCache, limiter, routers: options.routers, rpc: options.rpc, readiness: options.readiness, readinessErrors: options.readinessErrors, trustProxy: options.trustProxy, strictQueryParameters: strict });
  const handler = createFastLane(app, {
    cache: responseCache,
    lane: createQueryLane(deps),
    // Stored answers are never older than the stores' staleMs: check the data version first when due.
    fresh: () => (catalog.due() || prices.due() ? Promise.all([catalog.refresh(), prices.refresh()]).then(() => undefined) : undefined),
    // An answer read from the database per request is current when built, or not answered
    // (503); one stored before the database stopped answering is served from data held during
    // the outage, so it is marked like the stores' answers (the catalogue's failed check is
    // the process's word that the database does not answer).
    stale: ({ answer }) =>
      answer.from === 'catalogue' ? catalog.stale() : answer.from === 'priceHistories' ? prices.stale() : answer.from === 'database' && (catalog.stale() || prices.stale()),
    rpc: options.rpc,
    ignoreUndeclared: !strict,
    headers,
    limiter,
    logger,
    metrics,
    trustProxy: app.get('trust proxy fn') as (addr: string, i: number) => boolean,
  });
  return { handler, app, catalog, prices, responseCache, metrics, limiter };
}
