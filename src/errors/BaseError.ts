// Every error the service raises on purpose: a short message, an optional cause, a stable name.
export class BaseError extends Error {
  override name = 'BaseError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
