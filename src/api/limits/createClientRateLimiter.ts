import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { problem, type Problem } from '../problem.ts';
import { createLocalHitCounter } from './createLocalHitCounter.ts';
import type { CountWindow, HitCounter, WindowCount } from './HitCounter.ts';

export type ClientRateLimitOptions = {
  /** Requests per second per client IP; 0 turns this window off. */
  perSecond: number;
  /** Requests per minute per client IP; 0 turns this window off. */
  perMinute: number;
  /** Where hits are counted (shared through Redis for several API processes); in this process when absent. */
  counter?: HitCounter;
  /** Paths never limited (health checks, metrics scrapes). */
  exempt?: readonly string[];
  /** Called when the counter store fails; the request is let through. */
  onStoreError?: (error: unknown) => void;
};

export type RateLimitVerdict = {
  /** IETF httpapi RateLimit / RateLimit-Policy headers (draft 8), one named policy per window. */
  headers: [string, string[]][];
  /** Set when over a limit: the 429 body and the Retry-After seconds. */
  limited?: { problem: Problem; retryAfterSeconds: number };
};

export type ClientRateLimiter = {
  /** True when `path` is not limited (an exempt path, or no window configured). */
  skips(path: string): boolean;
  check(ip: string): Promise<RateLimitVerdict>;
  /** The same check as express middleware. */
  middleware: RequestHandler;
};

type Window = CountWindow & { limit: number };

/**
 * Per-IP limits in two fixed windows over a hit counter (in this process, or shared through
 * Redis with a per-process fall-back). A plain `check(ip)` so that the cached-answer fast lane,
 * which runs before Express, limits exactly like the Express middleware. When the counter
 * itself fails the request passes: a public read API prefers serving to refusing.
 */
export function createClientRateLimiter(options: ClientRateLimitOptions): ClientRateLimiter {
  const exempt = new Set(options.exempt ?? []);
  const windows: Window[] = [
    { name: 'per-second', windowMs: 1000, limit: options.perSecond },
    { name: 'per-minute', windowMs: 60_000, limit: options.perMinute },
  ]
    .filter((w) => w.limit > 0);
  const counter = options.counter ?? createLocalHitCounter();

  async function check(ip: string): Promise<RateLimitVerdict> {
    const key = ipKeyGenerator(ip, 56);
    const ratelimit: string[] = [];
    const policy: string[] = [];
    let limited: RateLimitVerdict['limited'];
    let counts: WindowCount[];
    try {
      counts = await counter.hit(key, windows);
    } catch (error) {
      options.onStoreError?.(error);
      return { headers: [] };
    }
    for (const [i, w] of windows.entries()) {
      const hits = counts[i]!.hits;
      const resetSeconds = Math.max(0, Math.ceil(counts[i]!.resetMs / 1000));
      ratelimit.push(`"${w.name}"; r=${Math.max(0, w.limit - hits)}; t=${resetSeconds}`);
      policy.push(`"${w.name}"; q=${w.limit}; w=${w.windowMs / 1000}`);
      if (hits > w.limit && !limited) {
        limited = {
          retryAfterSeconds: Math.max(1, resetSeconds),
          problem: problem(429, 'rate-limited', `More than ${w.limit} requests ${w.name.replace('-', ' ')} from ${ip}; retry after the Retry-After delay.`),
        };
      }
    }
    const headers: [string, string[]][] = ratelimit.length ? [['RateLimit', ratelimit], ['RateLimit-Policy', policy]] : [];
    return { headers, limited };
  }

  const middleware: RequestHandler = (req, res, next) => {
    if (windows.length === 0 || exempt.has(req.path)) return next();
    check(req.ip ?? 'unknown').then((verdict) => {
      if (!applyVerdict(res, verdict)) next();
    }, next);
  };

  return { skips: (path) => windows.length === 0 || exempt.has(path), check, middleware };
}

/**
 * Sets the verdict's RateLimit headers and, when the client is over a limit, answers 429
 * problem+json with Retry-After. True when it answered. The one writer of 429s, for Express and
 * the lanes in front of it.
 */
export function applyVerdict(res: ServerResponse, verdict: RateLimitVerdict): boolean {
  for (const [name, values] of verdict.headers) res.setHeader(name, values);
  if (!verdict.limited) return false;
  const body = JSON.stringify(verdict.limited.problem);
  res.statusCode = 429;
  res.setHeader('Retry-After', String(verdict.limited.retryAfterSeconds));
  res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
  return true;
}
