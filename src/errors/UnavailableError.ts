import { BaseError } from './BaseError.ts';

/** A dependency (node, database) cannot answer now (HTTP 503); retry after `retryAfterSeconds`. */
export class UnavailableError extends BaseError {
  override name = 'UnavailableError';

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
