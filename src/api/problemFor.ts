import { NotFoundError, UnavailableError, ValidationError } from '../errors/index.ts';
import { problem, type Problem } from './problem.ts';
import { validationIssues } from './validationIssues.ts';

type HttpError = Error & { status?: number; statusCode?: number; errors?: { path?: string; message?: string }[]; headers?: Record<string, string> };

/** The Allow header of a 405 from express-openapi-validator (its operations' methods), HEAD with GET as Express routes it. */
function allowOf(http: HttpError): [string, string][] {
  const listed = (http.headers?.Allow ?? http.headers?.allow ?? '').split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
  if (listed.includes('GET') && !listed.includes('HEAD')) listed.push('HEAD');
  return listed.length ? [['Allow', listed.join(', ')]] : [];
}

/** The problem answer for an error, with the headers that go with it; `internal` means "log it". */
export type ProblemAnswer = { problem: Problem; headers: [string, string][]; internal: boolean };

/**
 * The one table from errors to problem+json answers, for Express's error handler and the lanes
 * in front of it alike: the domain errors (bad input 400, not found 404, a dependency down 503
 * with Retry-After), the HTTP errors of express-openapi-validator and body parsing (400, 404,
 * 405, 406, 413, 415), and anything else as a 500 that says nothing of its cause.
 */
export function problemFor(err: unknown, request: { method: string; path: string }): ProblemAnswer {
  const answer = (p: Problem, headers: [string, string][] = []): ProblemAnswer => ({ problem: p, headers, internal: false });
  if (err instanceof ValidationError) return answer(problem(400, 'validation', err.message, err.issues));
  if (err instanceof NotFoundError) return answer(problem(404, 'not-found', err.message));
  // The short message names the dependency (database, chain node, Redis); its details (what the
  // dependency said: addresses, ports) are for the log only.
  if (err instanceof UnavailableError) return answer(problem(503, 'unavailable', err.shortMessage), [['Retry-After', String(err.retryAfterSeconds)]]);
  const http = err as HttpError;
  const status = http?.status ?? http?.statusCode ?? 500;
  if (status === 400) {
    // express-openapi-validator, or a body that is not JSON
    const issues = validationIssues(http.errors, http.message);
    return answer(problem(400, 'validation', issues.map((i) => `${i.field}: ${i.message}`).join('; '), issues));
  }
  if (status === 404) return answer(problem(404, 'not-found', `No route ${request.method} ${request.path}.`));
  if (status === 405) return answer(problem(405, 'method-not-allowed', `${request.method} is not allowed on ${request.path}.`), allowOf(http));
  if (status === 406) return answer(problem(406, 'not-acceptable', http.message));
  if (status === 413) return answer(problem(413, 'bad-request', http.message));
  if (status === 415) return answer(problem(415, 'unsupported-media-type', http.message));
  return { problem: problem(500, 'internal', 'The server could not answer; the error was logged.'), headers: [], internal: true };
}
