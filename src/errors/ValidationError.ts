import { BaseError } from './BaseError.ts';

export type FieldIssue = { field: string; in: 'query' | 'path' | 'header' | 'body'; message: string };

/** The caller's input is malformed or out of bounds (HTTP 400); `issues` names each bad field. */
export class ValidationError extends BaseError {
  override name = 'ValidationError';

  constructor(
    readonly issues: FieldIssue[],
    options?: { cause?: unknown },
  ) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('; '), options);
  }
}
