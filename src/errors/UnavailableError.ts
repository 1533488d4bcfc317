import { BaseError } from './BaseError.ts';

/** The dependencies an answer may name when it cannot be given: by their role, never their address. */
export type Dependency = 'database' | 'chain node' | 'Redis';

/**
 * A dependency (node, database) cannot answer now (HTTP 503); retry after `retryAfterSeconds`.
 * The public answer says `shortMessage` only: what the dependency said (`details`, the cause)
 * names hosts and ports, which stay in this process's logs.
 */
export class UnavailableError extends BaseError {
  override name = 'UnavailableError';

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown; details?: string; dependency?: Dependency },
  ) {
    super(message, options);
    this.dependency = options?.dependency;
  }

  /** The dependency that failed, when one did (not a result still loading). */
  readonly dependency: Dependency | undefined;
}
