import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { sendProblem } from './problem.ts';
import { problemFor } from './problemFor.ts';

/** The last middleware: every error becomes problem+json; no stack trace ever leaves the process. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    const answer = problemFor(err, { method: req.method, path: req.path });
    if (answer.internal) (req.log ?? logger).error({ err, path: req.path }, 'request failed');
    // A failure is not an answer to keep: the Cache-Control a cached route set before failing goes.
    if (answer.problem.status >= 500) res.removeHeader('Cache-Control');
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    sendProblem(res, answer.problem);
  };
}
