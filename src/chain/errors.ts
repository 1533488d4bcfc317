// Errors of the indexer's chain client: short message, the node's answer as `cause`.
import { BaseError } from '../errors/index.ts';

/** The node failed a request (after retries when the failure looked transient). */
export class ChainRequestError extends BaseError {
  override name = 'ChainRequestError';

  constructor(
    readonly method: string,
    readonly transient: boolean,
    options?: { cause?: unknown },
  ) {
    super(`chain request ${method} failed${transient ? ' (transient, retries exhausted)' : ''}`, options);
  }
}

/** An eth_call reverted (or hit a missing method): a property of the contract, not of the node. */
export class CallRevertedError extends BaseError {
  override name = 'CallRevertedError';

  constructor(
    readonly to: string,
    options?: { cause?: unknown },
  ) {
    super(`call to ${to} reverted`, options);
  }
}

/** The node refused a getLogs range even at a single block. */
export class LogRangeError extends BaseError {
  override name = 'LogRangeError';

  constructor(
    readonly fromBlock: number,
    readonly toBlock: number,
    options?: { cause?: unknown },
  ) {
    super(`node refused eth_getLogs for blocks ${fromBlock}..${toBlock}`, options);
  }
}
