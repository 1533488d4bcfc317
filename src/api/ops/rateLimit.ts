import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import { problem, sendProblem } from '../problem.ts';

export type RateLimitOptions = {
  /** Requests per second per client IP; 0 turns this window off. */
  perSecond: number;
  /** Requests per minute per client IP; 0 turns this window off. */
  perMinute: number;
  /** Shared counters for several API processes; in-process counters when absent. */
  redis?: Redis;
  /** Paths never limited (health checks, metrics scrapes). */
  exempt?: readonly string[];
};

function redisStore(redis: Redis, prefix: string): Store {
  return new RedisStore({
    prefix,
    sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as never,
  });
}

/**
 * Per-IP limits in two windows, with the IETF RateLimit / RateLimit-Policy headers (draft 8,
 * one named policy per window) and a 429 problem+json with Retry-After. When Redis fails, the
 * request passes (a public read API prefers serving to refusing) and the error is counted.
 */
export function createRateLimiters(options: RateLimitOptions): RequestHandler[] {
  const exempt = new Set(options.exempt ?? []);
  const windows = [
    { name: 'per-second', windowMs: 1000, limit: options.perSecond },
    { name: 'per-minute', windowMs: 60_000, limit: options.perMinute },
  ].filter((w) => w.limit > 0);
  return windows.map((w) =>
    rateLimit({
      windowMs: w.windowMs,
      limit: w.limit,
      identifier: w.name,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      passOnStoreError: true,
      validate: { xForwardedForHeader: false },
      skip: (req) => exempt.has(req.path),
      ...(options.redis ? { store: redisStore(options.redis, `ratelimit:${w.name}:`) } : {}),
      handler: (req, res) => {
        sendProblem(
          res,
          problem(429, 'rate-limited', `More than ${w.limit} requests ${w.name.replace('-', ' ')} from ${req.ip}; retry after the Retry-After delay.`),
        );
      },
    }),
  );
}
