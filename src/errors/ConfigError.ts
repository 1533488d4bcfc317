import { BaseError } from './BaseError.ts';

/** Configuration that cannot start the service; `problems` lists every bad entry at once. */
export class ConfigError extends BaseError {
  override name = 'ConfigError';

  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}
