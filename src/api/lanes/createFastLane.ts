import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { Logger } from 'pino';
import type { Operation } from '../../../generated/openapi/operations.ts';
import type { ResponseCache } from '../cache/responseCache.ts';
import type { HeaderList } from '../headers/staticHeaders.ts';
import { applyVerdict, type ClientRateLimiter } from '../limits/createClientRateLimiter.ts';
import type { Metrics } from '../observability/createMetrics.ts';
import { assignRequestId, observeRequest } from '../observability/requestContext.ts';
import { writeProblem } from '../problem.ts';
import { matchOperation, type OperationMatch } from '../operations/matchOperation.ts';
import { IGNORED_PARAMETERS_HEADER, splitMatchedQuery } from '../operations/undeclaredQuery.ts';
import { contentTypeOf, type SentReply } from '../operations/Reply.ts';
import { problemFor } from '../problemFor.ts';
import type { LanePlan, QueryLane } from './createQueryLane.ts';

export type FastLaneOptions = {
  /** Answers of the cacheable operations stored per data version, served here when present. */
  cache: ResponseCache;
  /** Uncached GETs and HEADs of the spec's operations answered without Express. */
  lane: QueryLane;
  /** Brings the data the cache is keyed by up to date when due (undefined when nothing is due). */
  fresh?: () => Promise<void> | undefined;
  /** True when the data a cacheable operation's answer comes from could not be confirmed current (X-Data-Stale). */
  stale?: (operation: Operation) => boolean;
  /** An endpoint served here entirely (JSON-RPC): every method but the CORS preflight. */
  rpc?: { path: string; handler: RequestListener };
  /**
   * Answer a request as if the query parameters its operation does not declare were absent,
   * naming them in X-Ignored-Parameters, as Express does (ignoreUndeclaredQuery); false when
   * they are refused (strict mode): such a request then goes to Express.
   */
  ignoreUndeclared: boolean;
  /** The headers the app sets on every answer (security, CORS, Vary). */
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
 * half the throughput on a cached page). It serves a GET or HEAD of one of the spec's operations
 * (matchOperation) whose answer is stored at the current data version, an uncached one the query
 * lane can answer exactly as Express would, and the JSON-RPC endpoint (its own envelope, no REST
 * validation to run); everything else goes to `app`. test/api/lanes/differential.test.ts
 * compares it with Express on generated requests.
 */
export function createFastLane(app: RequestListener, options: FastLaneOptions): RequestListener {
  const { cache, lane, limiter, logger, metrics, rpc } = options;
  const laneHeaders: [string, string | number | string[]][] = [
    ...options.headers.map(([name, value]): [string, string | number | string[]] => [name, typeof value === 'object' ? [...value] : value]),
    ['content-type', 'application/json; charset=utf-8'],
  ];

  /** Builds a lane answer and serves it; stores it first like the Express pipeline would when the operation is cacheable. */
  function build(req: IncomingMessage, res: ServerResponse, id: string, url: string, plan: LanePlan, cacheable: boolean): void {
    const atVersion = cache.version();
    plan.run().then(
      (reply) => {
        // '' stores nothing: an answer the data version does not describe (Reply.notCached).
        if (cacheable) return cache.serve(req, res, cache.store(url, reply.notCached ? '' : atVersion, reply.body, plan.route, laneHeaders, reply.etag));
        sendDirect(res, reply);
      },
      (error: unknown) => {
        const answer = problemFor(error, { method: req.method ?? 'GET', path: url.split('?', 1)[0] ?? url });
        if (answer.internal) logger.error({ err: error, reqId: id, path: url.split('?', 1)[0] }, 'request failed');
        // Express's capture sets Cache-Control before the handler runs, so the 4xx its handlers
        // answer (404, a 400 the handler finds) carry it too; no 5xx does (errorHandler).
        if (cacheable && answer.problem.status < 500) res.setHeader('Cache-Control', cache.cacheControl);
        for (const [name, value] of answer.headers) res.setHeader(name, value);
        writeProblem(res, answer.problem);
      },
    );
  }

  /** An answer the cache does not keep (supply: its Age moves), sent like Express would. */
  function sendDirect(res: ServerResponse, reply: SentReply): void {
    for (const [name, value] of reply.headers ?? []) res.setHeader(name, value);
    res.statusCode = 200;
    res.setHeader('Content-Type', contentTypeOf(reply));
    res.setHeader('Content-Length', Buffer.byteLength(reply.body));
    res.end(reply.body); // Node sends no body in answer to HEAD
  }

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

  function answer(req: IncomingMessage, res: ServerResponse, url: string, match: OperationMatch): void {
    const { cacheable } = match.operation.answer;
    // The stored answer is keyed by the declared parameters (the cache's keyUrl); the lane reads them alone.
    const ignored = options.ignoreUndeclared ? splitMatchedQuery(match) : undefined;
    const named = ignored?.ignored;
    const stored = cacheable ? cache.lookup(url) : undefined;
    const path = url.split('?', 1)[0] ?? url;
    if (stored) {
      const id = assignRequestId(req, res);
      observeRequest(logger, metrics, req, res, id, () => stored.route);
      return limited(req, res, path, () => {
        if (named) res.setHeader(IGNORED_PARAMETERS_HEADER, named);
        cache.serve(req, res, stored);
      }, () => {
        for (const [name, value] of stored.headers) if (!res.hasHeader(name) && name !== 'content-type') res.setHeader(name, value);
      });
    }
    const plan = lane.plan(named ? { ...match, query: ignored!.query } : match);
    if (!plan) return app(req, res);
    const id = assignRequestId(req, res);
    observeRequest(logger, metrics, req, res, id, () => plan.route);
    for (const [name, value] of options.headers) res.setHeader(name, value);
    limited(req, res, path, () => {
      if (named) res.setHeader(IGNORED_PARAMETERS_HEADER, named);
      build(req, res, id, url, plan, cacheable);
    }, () => {});
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (rpc && req.method !== 'OPTIONS' && (url === rpc.path || url.startsWith(rpcQuery!))) {
      const id = assignRequestId(req, res);
      observeRequest(logger, metrics, req, res, id, () => rpc.path);
      for (const [name, value] of options.headers) res.setHeader(name, value);
      return limited(req, res, rpc.path, () => rpc.handler(req, res), () => req.resume());
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return app(req, res);
    const match = matchOperation(url);
    if (!match) return app(req, res);
    // Marked only when the data is stale now or after the check below: hooking every response
    // (the common, current case) cost a third of the cached-answer throughput.
    const { stale } = options;
    const isStale = match.operation.answer.cacheable && stale ? () => stale(match.operation) : undefined;
    if (isStale?.()) markStale(res, isStale);
    // Only answers built from the database's data wait for its check: a supply answer is read
    // from the chain node and never waits for one (it waited DATA_REFRESH_WAIT_MS in an outage).
    const due = match.operation.answer.from === 'supply' ? undefined : options.fresh?.();
    if (!due) return answer(req, res, url, match);
    const answerChecked = () => {
      if (isStale && !(res as MarkedResponse)[MARKED] && isStale()) markStale(res, isStale);
      answer(req, res, url, match);
    };
    // A failed check leaves the held data to answer from, as the stores' own polls do.
    due.then(answerChecked, (error: unknown) => {
      logger.warn({ err: error }, 'data version check failed; answering from the data held');
      answerChecked();
    });
  };
}

/**
 * Adds `X-Data-Stale: true` to a 200 or 304 answered while `isStale()`, judged when the answer is
 * sent (after it was built, whichever path built it: stored, lane or Express). Both the head and
 * the end are hooked: compression writes the head before ending, a response wrapper (the spec
 * check) holds the head until the end.
 */
const MARKED = Symbol('markedStale');
type MarkedResponse = ServerResponse & { [MARKED]?: true };

function markStale(res: ServerResponse, isStale: () => boolean): void {
  (res as MarkedResponse)[MARKED] = true;
  const mark = (status: number) => {
    if ((status === 200 || status === 304) && !res.headersSent && isStale()) res.setHeader('X-Data-Stale', 'true');
  };
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    mark(typeof args[0] === 'number' ? args[0] : this.statusCode);
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: Parameters<ServerResponse['end']>) {
    mark(this.statusCode);
    return end.apply(this, args);
  } as ServerResponse['end'];
}
