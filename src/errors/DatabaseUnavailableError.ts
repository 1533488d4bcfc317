import { UnavailableError } from './UnavailableError.ts';

/** The database cannot be reached or did not answer in time (HTTP 503 with Retry-After). */
export class DatabaseUnavailableError extends UnavailableError {
  override name = 'DatabaseUnavailableError';

  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options?.retryAfterSeconds ?? 5, options);
  }
}
