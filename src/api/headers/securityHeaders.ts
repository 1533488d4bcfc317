import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { recordHeaders, type HeaderList } from './staticHeaders.ts';

const EXPOSED_HEADERS = ['ETag', 'Age', 'X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Supply-Stale', 'X-Supply-Block-Number', 'X-Data-Stale', 'X-Ignored-Parameters'];

/** Open CORS for a public read API; preflights go through cors() itself. */
export const corsOptions = { origin: '*', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], exposedHeaders: EXPOSED_HEADERS };

/**
 * helmet's defaults (the docs pages send their own CSP) and CORS: the same headers on every
 * answer, for both the Express app and the lanes in front of it.
 */
export function securityMiddleware(): RequestHandler[] {
  return [helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } }), cors(corsOptions)];
}

/**
 * The headers of every answer, recorded once: helmet's and CORS's, and `Vary: Accept-Encoding`
 * (any answer may be compressed for a client that asks, so a shared cache must key on it, also
 * for a client that did not ask: compression() alone adds it only where it runs).
 */
export function answerHeaders(): HeaderList {
  return [...recordHeaders(...securityMiddleware()), ['vary', 'Accept-Encoding']];
}
