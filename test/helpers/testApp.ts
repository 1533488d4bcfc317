import type { RequestListener } from 'node:http';
import pino from 'pino';
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from '../../src/api/createHttpHandler.ts';
import { createResponseValidator } from '../../src/api/validation/createResponseValidator.ts';
import { withResponseValidation } from '../../src/api/validation/withResponseValidation.ts';
import type { Database } from '../../src/db/index.ts';

export const silentLogger = pino({ level: 'silent' });

/** The spec's response checks, compiled once per test process. */
export const responseValidator = createResponseValidator();

/** The request listener production runs, checked against the spec from outside; `parts` are its pieces. */
export type TestApp = RequestListener & { parts: HttpHandler };

/**
 * The real request pipeline (lanes, response cache, Express) as every API test uses it, with
 * every response checked against spec/openapi.yaml by a wrapper outside it: a response that
 * does not match the spec becomes a 500 naming the violation. Data written to `db` shows at
 * the next request (the stores check the data version on every request unless told otherwise).
 */
export function testApp(db: Database, extra: Partial<HttpHandlerOptions> = {}): TestApp {
  const parts = createHttpHandler({ db, logger: silentLogger, ...extra });
  return Object.assign(withResponseValidation(parts.handler, responseValidator), { parts });
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
