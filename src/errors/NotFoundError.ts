import { BaseError } from './BaseError.ts';

/** A resource the caller named does not exist (HTTP 404). */
export class NotFoundError extends BaseError {
  override name = 'NotFoundError';
}
