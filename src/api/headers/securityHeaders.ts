import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

const EXPOSED_HEADERS = ['ETag', 'Age', 'X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Supply-Stale', 'X-Supply-Block-Number'];

/** Open CORS for a public read API; preflights go through cors() itself. */
export const corsOptions = { origin: '*', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], exposedHeaders: EXPOSED_HEADERS };

/**
 * helmet's defaults (the docs pages send their own CSP) and CORS: the same headers on every
 * answer, for both the Express app and the lanes in front of it.
 */
export function securityMiddleware(): RequestHandler[] {
  return [helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } }), cors(corsOptions)];
}
