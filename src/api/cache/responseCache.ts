import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import { acceptsGzip } from './acceptsGzip.ts';
import type { Metrics } from '../observability/createMetrics.ts';

export type CachedAnswer = {
  version: string;
  body: Buffer;
  /** Compressed once, on the first request that accepts gzip. */
  gzip?: Buffer;
  etag: string;
  route: string;
  /** The headers the full pipeline set (security, CORS), replayed on every hit. */
  headers: [string, string | number | string[]][];
};

export type ResponseCacheOptions = {
  /**
   * The version of the data answers are built from (the token catalogue's, so an answer is
   * never stored under a version newer than the data it was built from); '' stores nothing.
   */
  version: () => string;
  /**
   * The version whose stored answers are served (default: `version`). While the catalogue applies
   * a load it names no version to build under, but every answer stored under the version it held
   * whole before describes that version: they are served until the load is whole, as answers
   * held during a check are.
   */
  servedVersion?: () => string;
  /** Cache-Control max-age of answers, in seconds: the data refresh cadence. */
  maxAgeSeconds: number;
  /** Bound of the stored answers (bodies, gzip copies, keys), in bytes; default 2 MiB. */
  maxBytes?: number;
  metrics?: Metrics;
  /** Extra key part for answers that also depend on the wall clock (e.g. the hour), from the URL. */
  clockKey?: (url: string) => string;
  /** The part of a URL answers are keyed by (the URL without the parameters its operation ignores); the URL itself by default. */
  keyUrl?: (url: string) => string;
};

export type ResponseCache = {
  /** The answer stored for a URL at the current data version, counting the hit or miss. */
  lookup(url: string): CachedAnswer | undefined;
  /** Writes a stored answer: 304 on a matching If-None-Match, gzip when accepted. */
  serve(req: IncomingMessage, res: ServerResponse, answer: CachedAnswer): void;
  /** The Cache-Control header of every answer of the cached routes. */
  cacheControl: string;
  /** The data version answers built now will be stored under (read it before building one). */
  version(): string;
  /**
   * Stores a 200 JSON body built from data at `atVersion` ('' stores nothing, nor does a version
   * that moved while the answer was built: it may mix two), with its ETag when its producer knows
   * it (else the body's hash); the answer to serve.
   */
  store(url: string, atVersion: string, body: string | Buffer, route: string, headers: CachedAnswer['headers'], etag?: string): CachedAnswer;
  /** Express middleware serving stored answers. */
  middleware: RequestHandler;
  /** Call before the handler runs: stores its 200 JSON body under the version it was read at. */
  capture: RequestHandler;
};

const GZIP_MIN_BYTES = 1024;
// Per-request or per-encoding headers: never replayed from a stored answer.
const NOT_REPLAYED = new Set([
  'x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'content-length', 'content-encoding',
  'etag', 'cache-control', 'vary', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-data-stale',
  'x-ignored-parameters', // names what this request sent, not what the answer is
]);

/** A weak ETag from the body's SHA-1 (catalogue pages make theirs from their tokens' digests). */
const etagOf = (body: Buffer) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));
}

function replayable(headers: OutgoingHttpHeaders): CachedAnswer['headers'] {
  return Object.entries(headers).filter(
    (h): h is [string, string | number | string[]] => h[1] !== undefined && !NOT_REPLAYED.has(h[0]),
  );
}

/**
 * Serialised answers kept between indexer updates. Every API process follows the shared data
 * version (through its token catalogue) and answers repeated GETs from memory with an ETag,
 * 304s and a gzip body compressed once, so the hot paths skip validation, serialisation and
 * compression. Only URLs whose answer was a valid 200 are ever stored, so a cached hit never
 * bypasses a rejection.
 */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const entries = new LRUCache<string, CachedAnswer>({
    // The bound holds the hot set. Larger bounds fill with answers asked for once, which live
    // long enough to reach V8's old generation and are freed (with their malloc'd bodies) only
    // by its full collections: more memory and slower uncached answers (docs/performance.md,
    // fourth round).
    maxSize: options.maxBytes ?? 2 * 1024 * 1024,
    sizeCalculation: (e, key) => Math.ceil(e.body.length * 1.3) + key.length + 500, // with the gzip copy
  });
  const cacheControl = `public, max-age=${options.maxAgeSeconds}`;
  // The URL itself when no clock part applies: no copy of the URL per lookup (a 100-address URL
  // is kilobytes long). Only some routes have a clock part, and then all their keys do, so the
  // two forms cannot collide.
  const keyOf = (url: string) => {
    const clock = options.clockKey?.(url);
    const key = options.keyUrl ? options.keyUrl(url) : url;
    return clock ? `${key}#${clock}` : key;
  };

  const servedVersion = options.servedVersion ?? options.version;

  function lookup(url: string): CachedAnswer | undefined {
    const version = servedVersion();
    const entry = version ? entries.get(keyOf(url)) : undefined;
    const hit = entry !== undefined && entry.version === version;
    options.metrics?.cacheLookups.inc({ cache: 'response', result: hit ? 'hit' : 'miss' });
    return hit ? entry : undefined;
  }

  function serve(req: IncomingMessage, res: ServerResponse, answer: CachedAnswer): void {
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.setHeader('ETag', answer.etag);
    res.setHeader('Cache-Control', cacheControl);
    if (matches(req.headers['if-none-match'], answer.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    let payload = answer.body;
    res.setHeader('Vary', 'Accept-Encoding'); // even when too small to compress
    if (answer.body.length >= GZIP_MIN_BYTES && acceptsGzip(req.headers['accept-encoding'])) {
      payload = answer.gzip ??= gzipSync(answer.body);
      res.setHeader('Content-Encoding', 'gzip');
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', payload.length);
    res.statusCode = 200;
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  function store(url: string, atVersion: string, body: string | Buffer, route: string, headers: CachedAnswer['headers'], etag?: string): CachedAnswer {
    const buffer = typeof body === 'string' ? Buffer.from(body) : body;
    const answer: CachedAnswer = { version: atVersion, body: buffer, etag: etag ?? etagOf(buffer), route, headers };
    if (atVersion && atVersion === options.version()) entries.set(keyOf(url), answer);
    return answer;
  }

  const middleware: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const answer = lookup(req.originalUrl);
    if (!answer) return next();
    res.locals.route = answer.route;
    serve(req, res, answer);
  };

  const capture: RequestHandler = (req, res, next) => {
    const atVersion = options.version();
    res.setHeader('Cache-Control', cacheControl);
    // Hooked at send, after res.json (and the response validator's wrapper around it) ran.
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (res.statusCode !== 200 || (typeof body !== 'string' && !Buffer.isBuffer(body))) return send(body);
      const route = `${req.baseUrl}${req.route?.path ?? req.path}`;
      // A handler that knows its body's ETag leaves it in res.locals (catalogue pages).
      const given = typeof res.locals.etag === 'string' ? res.locals.etag : undefined;
      // '' stores nothing: an answer the data version does not describe (Reply.notCached).
      const { etag } = store(req.originalUrl, res.locals.notCached === true ? '' : atVersion, body, route, replayable(res.getHeaders()), given);
      res.setHeader('ETag', etag);
      if (matches(req.get('if-none-match'), etag)) return res.status(304).end();
      return send(body);
    };
    next();
  };

  return { lookup, serve, cacheControl, version: options.version, store, middleware, capture };
}
