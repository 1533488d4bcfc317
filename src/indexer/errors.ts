import { BaseError } from '../errors/index.ts';

/** The chain no longer matches what was indexed (or changed while a batch was read). */
export class ReorgDetectedError extends BaseError {
  override name = 'ReorgDetectedError';

  constructor(readonly blockNumber: number) {
    super(`chain reorganised at or below block ${blockNumber}`);
  }
}

/** The node serves another chain than the one configured or already indexed. */
export class ChainMismatchError extends BaseError {
  override name = 'ChainMismatchError';

  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`node is on chain ${actual}, expected ${expected}`);
  }
}
