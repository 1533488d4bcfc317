import pino from 'pino';
import { createApp, type AppOptions } from '../../src/api/createApp.ts';
import type { Database } from '../../src/db/index.ts';

export const silentLogger = pino({ level: 'silent' });

/** The real app with response validation on, as every API test uses it. */
export function testApp(db: Database, extra: Partial<AppOptions> = {}) {
  return createApp({ db, logger: silentLogger, validateResponses: true, ...extra });
}

/** Records "METHOD url" of every request that reaches the Express app (behind the lanes). */
export function recordExpressRequests(app: unknown): string[] {
  const reached: string[] = [];
  const express = app as { handle: (req: { method: string; url: string }, ...rest: unknown[]) => unknown };
  const original = express.handle.bind(express);
  express.handle = (req, ...rest) => {
    reached.push(`${req.method} ${req.url}`);
    return original(req, ...rest);
  };
  return reached;
}
