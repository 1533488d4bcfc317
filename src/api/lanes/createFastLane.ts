import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { NotFoundError, UnavailableError } from '../../errors/index.ts';
import type { QueryLane } from './createQueryLane.ts';
import { problem, writeProblem } from '../problem.ts';
import proxyaddr from 'proxy-addr';
import type { Metrics } from '../observability/createMetrics.ts';
import { applyVerdict, type ClientRateLimiter } from '../limits/createClientRateLimiter.ts';
import { assignRequestId, observeRequest } from '../observability/requestContext.ts';
import type { ResponseCache } from '../cache/responseCache.ts';
import type { LanePlan } from './createQueryLane.ts';
import type { HeaderList } from '../headers/staticHeaders.ts';

export type FastLaneOptions = {
  /** Answers stored per data version, served here when present. */
  cache?: ResponseCache;
  /** Path prefixes whose answers the cache may hold. */
  prefixes?: readonly string[];
  /** Further path prefixes the lane answers without the cache (supply). */
  lanePrefixes?: readonly string[];
  /** An endpoint served here entirely (JSON-RPC): every method but the CORS preflight. */
  rpc?: { path: string; handler: RequestListener };
  /** Uncached GETs of the read endpoints answered without Express (needs `cache`). */
  lane?: QueryLane;
  /** The security and CORS headers the app sets on every answer (for the lanes). */
  headers: HeaderList;
  limiter?: ClientRateLimiter;
  logger: Logger;
  metrics: Metrics;
  /** Express's compiled "trust proxy" function, so client IPs match req.ip. */
  trustProxy: (addr: string, i: number) => boolean;
};

/**
 * The request listener in front of Express, with the same request id, rate limit, headers,
 * access log and metrics as the full pipeline but without Express's own per-request cost (about
 * half the throughput on a cached page). It serves a GET whose answer is stored at the current
 * data version, and the JSON-RPC endpoint (its own envelope, no REST validation to run);
 * everything else goes to `app`.
 */
export function createFastLane(app: RequestListener, options: FastLaneOptions): RequestListener {
  const { cache, lane, limiter, logger, metrics, rpc } = options;
  const laneHeaders: [string, string | number | string[]][] = [
    ...options.headers.map(([name, value]): [string, string | number | string[]] => [name, typeof value === 'object' ? [...value] : value]),
    ['content-type', 'application/json; charset=utf-8'],
  ];

  /** Builds a lane answer, stores it like the Express pipeline would, and serves it. */
  function build(req: IncomingMessage, res: ServerResponse, id: string, url: string, plan: LanePlan, store: ResponseCache, cacheable: boolean): void {
    const atVersion = store.version();
    plan.run().then(
      (reply) => {
        if (typeof reply === 'string' || Buffer.isBuffer(reply) || 'etag' in reply) return store.serve(req, res, store.store(url, atVersion, reply, plan.route, laneHeaders));
        for (const [name, value] of reply.headers) res.setHeader(name, value);
        sendDirect(req, res, reply.contentType, reply.body);
      },
      (error: unknown) => {
        // Express compresses (and so sets Vary) only for clients that send Accept-Encoding.
        if (req.headers['accept-encoding'] !== undefined) res.setHeader('Vary', 'Accept-Encoding');
        if (error instanceof NotFoundError) {
          if (cacheable) res.setHeader('Cache-Control', store.cacheControl); // set before the handler, like capture()
          return writeProblem(res, problem(404, 'not-found', error.message));
        }
        if (error instanceof UnavailableError) {
          res.setHeader('Retry-After', String(error.retryAfterSeconds));
          return writeProblem(res, problem(503, 'unavailable', error.message));
        }
        logger.error({ err: error, reqId: id, path: url.split('?', 1)[0] }, 'request failed');
        writeProblem(res, problem(500, 'internal', 'The server could not answer; the error was logged.'));
      },
    );
  }

  /** An answer the cache does not keep, sent like Express would (Vary only where it compresses). */
  function sendDirect(req: IncomingMessage, res: ServerResponse, contentType: string, body: string): void {
    if (req.headers['accept-encoding'] !== undefined) res.setHeader('Vary', 'Accept-Encoding');
    res.statusCode = 200;
    res.setHeader('Content-Type', contentType);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  }

  const prefixes = options.prefixes ?? [];
  const lanePrefixes = options.lanePrefixes ?? [];
  const rpcQuery = rpc ? `${rpc.path}?` : undefined;

  /** Runs `serve` once the client is within its limits; answers 429 otherwise. */
  function limited(req: IncomingMessage, res: ServerResponse, path: string, serve: () => void, onLimited: () => void): void {
    if (!limiter || limiter.skips(path)) return serve();
    limiter.check(proxyaddr(req, options.trustProxy)).then(
      (verdict) => {
        if (verdict.limited) onLimited();
        if (!applyVerdict(res, verdict)) serve();
      },
      serve, // check() absorbs store errors; fail open like it
    );
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (rpc && req.method !== 'OPTIONS' && (url === rpc.path || url.startsWith(rpcQuery!))) {
      const id = assignRequestId(req, res);
      observeRequest(logger, metrics, req, res, id, () => rpc.path);
      for (const [name, value] of options.headers) res.setHeader(name, value);
      return limited(req, res, rpc.path, () => rpc.handler(req, res), () => req.resume());
    }
    if (!cache || (req.method !== 'GET' && req.method !== 'HEAD')) return app(req, res);
    const cacheable = prefixes.some((p) => url.startsWith(p));
    if (!cacheable && !(lane && lanePrefixes.some((p) => url.startsWith(p)))) return app(req, res);
    const answer = cacheable ? cache.lookup(url) : undefined;
    if (!answer) {
      const plan = req.method === 'GET' ? lane?.plan(url) : undefined;
      if (!plan) return app(req, res);
      const id = assignRequestId(req, res);
      observeRequest(logger, metrics, req, res, id, () => plan.route);
      for (const [name, value] of options.headers) res.setHeader(name, value);
      const path = url.split('?', 1)[0] ?? url;
      return limited(req, res, path, () => build(req, res, id, url, plan, cache, cacheable), () => {});
    }
    const id = assignRequestId(req, res);
    observeRequest(logger, metrics, req, res, id, () => answer.route);
    const path = url.split('?', 1)[0] ?? url;
    limited(req, res, path, () => cache.serve(req, res, answer), () => {
      for (const [name, value] of answer.headers) if (!res.hasHeader(name) && name !== 'content-type') res.setHeader(name, value);
    });
  };
}
