import { UnavailableError } from './UnavailableError.ts';

/**
 * The database cannot be reached or did not answer in time (HTTP 503 with Retry-After). Its
 * short message names the database only; what the driver said (an address, a port) is in
 * `details` and the cause, for logs.
 */
export class DatabaseUnavailableError extends UnavailableError {
  override name = 'DatabaseUnavailableError';

  constructor(message = 'The database does not answer.', options?: { cause?: unknown; details?: string; retryAfterSeconds?: number }) {
    super(message, options?.retryAfterSeconds ?? 5, { ...options, dependency: 'database' });
  }
}
