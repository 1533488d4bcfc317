import { DatabaseUnavailableError } from '../errors/index.ts';

// Socket errors of a connection that cannot be made or was lost.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// SQLSTATEs of a server that is going away, not accepting connections, or cancelled a statement
// at statement_timeout; class 08 is every connection exception.
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '57014', '53300']);
// pg's own messages for its timeouts and for a connection that ended under it.
const CLIENT_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|Query read timeout|connection timeout|Client has encountered a connection error|not queryable|Connection is closed/i;

/** True when `error` says the database is unreachable or too slow, not that the SQL was wrong. */
export function isDatabaseFault(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  return CLIENT_MESSAGES.test(error.message);
}

/** A database fault as DatabaseUnavailableError (a 503 to API clients); any other error as it is. */
export function asDatabaseFault(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isDatabaseFault(error)) return error;
  return new DatabaseUnavailableError(undefined, { cause: error, details: (error as Error).message });
}
