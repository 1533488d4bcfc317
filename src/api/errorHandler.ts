import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { NotFoundError, UnavailableError, ValidationError } from '../errors/index.ts';
import { problem, sendProblem } from './problem.ts';
import { validationIssues } from './validationIssues.ts';

type HttpError = Error & { status?: number; statusCode?: number; errors?: { path?: string; message?: string }[]; type?: string };

/** The last middleware: every error becomes problem+json; no stack trace ever leaves the process. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: HttpError, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (err instanceof ValidationError) {
      sendProblem(res, problem(400, 'validation', err.message, err.issues));
      return;
    }
    if (err instanceof NotFoundError) {
      sendProblem(res, problem(404, 'not-found', err.message));
      return;
    }
    if (err instanceof UnavailableError) {
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      sendProblem(res, problem(503, 'unavailable', err.message));
      return;
    }
    const status = err.status ?? err.statusCode ?? 500;
    if (status === 400) {
      // express-openapi-validator, or a body that is not JSON
      const issues = validationIssues(err.errors, err.message);
      sendProblem(res, problem(400, 'validation', issues.map((i) => `${i.field}: ${i.message}`).join('; '), issues));
      return;
    }
    if (status === 404) {
      sendProblem(res, problem(404, 'not-found', `No route ${req.method} ${req.path}.`));
      return;
    }
    if (status === 405) {
      sendProblem(res, problem(405, 'method-not-allowed', `${req.method} is not allowed on ${req.path}.`));
      return;
    }
    if (status === 406 || status === 413 || status === 415) {
      const kind = status === 406 ? 'not-acceptable' : status === 415 ? 'unsupported-media-type' : 'bad-request';
      sendProblem(res, problem(status, kind, err.message));
      return;
    }
    (req.log ?? logger).error({ err, path: req.path }, 'request failed');
    sendProblem(res, problem(500, 'internal', 'The server could not answer; the error was logged.'));
  };
}
