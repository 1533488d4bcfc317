import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import type { Metrics } from './createMetrics.ts';

type Entry = { version: string; body: string; etag: string; route: string };

export type ResponseCacheOptions = {
  /**
   * The version of the data answers are built from (the token catalogue's, so an answer is
   * never stored under a version newer than the data it was built from); '' stores nothing.
   */
  version: () => string;
  /** Cache-Control max-age of answers, in seconds: the data refresh cadence. */
  maxAgeSeconds: number;
  maxBytes?: number;
  metrics?: Metrics;
  /** Extra key part for answers that also depend on the wall clock (e.g. the hour), from the URL. */
  clockKey?: (url: string) => string;
};

export type ResponseCache = {
  /** Serves a stored body for a URL that validated before, while the data version holds. */
  middleware: RequestHandler;
  /** Call before the handler runs: stores its 200 JSON body under the version it was read at. */
  capture: RequestHandler;
};

const etagOf = (body: string) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));
}

/**
 * Serialised pages kept between indexer updates. Every API process follows the shared data
 * version (through its token catalogue) and answers repeated GETs from memory with an ETag and
 * 304s, so the hot paths skip validation and serialisation. Only URLs whose answer was a valid
 * 200 are ever stored, so a cached hit never bypasses a rejection.
 */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (e) => e.body.length + 200,
  });
  const cacheControl = `public, max-age=${options.maxAgeSeconds}`;
  const keyOf = (url: string) => `${url}#${options.clockKey?.(url) ?? ''}`;

  const middleware: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const version = options.version();
    const entry = version ? entries.get(keyOf(req.originalUrl)) : undefined;
    if (!entry || entry.version !== version) {
      options.metrics?.cacheLookups.inc({ cache: 'response', result: 'miss' });
      return next();
    }
    options.metrics?.cacheLookups.inc({ cache: 'response', result: 'hit' });
    res.locals.route = entry.route;
    res.setHeader('ETag', entry.etag);
    res.setHeader('Cache-Control', cacheControl);
    if (matches(req.get('if-none-match'), entry.etag)) {
      res.status(304).end();
      return;
    }
    res.type('application/json').send(entry.body);
  };

  const capture: RequestHandler = (req, res, next) => {
    const atVersion = options.version();
    const key = keyOf(req.originalUrl);
    res.setHeader('Cache-Control', cacheControl);
    // Hooked at send, after res.json (and the response validator's wrapper around it) ran.
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (res.statusCode !== 200 || typeof body !== 'string') return send(body);
      const etag = etagOf(body);
      if (atVersion) entries.set(key, { version: atVersion, body, etag, route: `${req.baseUrl}${req.route?.path ?? req.path}` });
      res.setHeader('ETag', etag);
      if (matches(req.get('if-none-match'), etag)) return res.status(304).end();
      return send(body);
    };
    next();
  };

  return { middleware, capture };
}
