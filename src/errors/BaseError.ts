// Every error the service raises on purpose, in the shape viem uses: a short message for people,
// optional details (what the dependency said), the cause it wraps, and walk() down the causes.
export type BaseErrorOptions = { cause?: unknown; details?: string };

export class BaseError extends Error {
  override name = 'BaseError';
  /** One line that says what failed, without the dependency's own words. */
  readonly shortMessage: string;
  /** What the dependency said (a body snippet, an error text), when it said something. */
  readonly details: string | undefined;

  constructor(shortMessage: string, options: BaseErrorOptions = {}) {
    super(options.details ? `${shortMessage}\n\nDetails: ${options.details}` : shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.shortMessage = shortMessage;
    this.details = options.details;
  }

  /**
   * The first error along the cause chain (this one included) for which `match` is true, or
   * without `match` the deepest cause; null when nothing matches.
   */
  walk(match?: (error: unknown) => boolean): unknown {
    let current: unknown = this;
    let deepest: unknown = this;
    for (let depth = 0; current !== undefined && current !== null && depth < 32; depth++) {
      if (match?.(current)) return current;
      deepest = current;
      current = (current as { cause?: unknown }).cause;
    }
    return match ? null : deepest;
  }
}
