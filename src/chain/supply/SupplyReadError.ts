import { BaseError } from '../../errors/index.ts';

/** The node answered, but not with figures a supply can be built from (wrong method, reverts, no block). */
export class SupplyReadError extends BaseError {
  override name = 'SupplyReadError';
}
