import { loadPriceAt, type Queryable } from '../../db/index.ts';
import { NotFoundError, ValidationError } from '../../errors/index.ts';
import type { OperationParams } from '../../../generated/openapi/operations.ts';
import { toJson, type Json } from '../json.ts';
import { parseUtcTime } from '../parseUtcTime.ts';
import type { PriceAt } from '../types.ts';

/** How often a reader that found no indexed block looks for one again. */
export const NO_HEAD_RECHECK_MS = 1000;

/** A price-at answer, and whether it is the head's price because the moment asked for is after the head. */
export type PriceAtAnswer = { body: Json<PriceAt>; afterHead: boolean };

/**
 * GET /prices/{contractAddress}/at: the last price change at or before a time or the end of a
 * block (exactly one of them), one statement. A moment after the chain's head as indexed (a time
 * after its block's time, a block above its number) answers the price in force at the head, with
 * `afterHead` naming the head. ValidationError for neither or both, or a moment before the price
 * changes' retention horizon; NotFoundError for a token that is not indexed or had no price then.
 */
export function createPriceAtReader(db: Queryable): (params: OperationParams['getTokenPriceAt']) => Promise<PriceAtAnswer> {
  // The highest head read so far: the head only moves forward (but for a rollback of a few blocks,
  // when a moment between the new head and this one answers without `afterHead` until the head is
  // back), so a moment at or before it is not after the head and the statement skips the head.
  let known: { blockNumber: number; time: number } | null | undefined;
  let noHeadCheckedAt = 0;
  const mayBeAfterHead = (at: { time: Date } | { block: number }): boolean => {
    if (known === undefined) return true;
    // Before the indexer's first block: checked again at most once per NO_HEAD_RECHECK_MS.
    if (known === null) return Date.now() - noHeadCheckedAt >= NO_HEAD_RECHECK_MS;
    return 'time' in at ? at.time.getTime() > known.time : at.block > known.blockNumber;
  };
  const remember = (head: { blockNumber: number; time: number } | null): void => {
    if (head === null) {
      if (!known) [known, noHeadCheckedAt] = [null, Date.now()];
    } else if (!known || head.blockNumber > known.blockNumber) known = head;
  };

  return async ({ contractAddress, time, block }) => {
    if ((time === undefined) === (block === undefined)) {
      const message = time === undefined ? 'give `time` or `block`' : 'give `time` or `block`, not both';
      throw new ValidationError([{ field: 'time', in: 'query', message }, { field: 'block', in: 'query', message }]);
    }
    const at: { time: Date } | { block: number } = time !== undefined ? { time: new Date(parseUtcTime(time, 'time')) } : { block: block! };
    const withHead = mayBeAfterHead(at);
    const read = await loadPriceAt(db, contractAddress, at, withHead);
    if (read === undefined) throw new NotFoundError(`No token ${contractAddress} is indexed.`);
    if (read.head !== undefined) remember(read.head);
    if ('time' in at && read.keptFrom !== null && at.time.getTime() < read.keptFrom) {
      throw new ValidationError([{ field: 'time', in: 'query', message: `is before the earliest price kept, ${new Date(read.keptFrom).toISOString()} (retention)` }]);
    }
    if ('block' in at && read.keptFromBlock !== null && at.block < read.keptFromBlock) {
      throw new ValidationError([{
        field: 'block', in: 'query',
        message: `is before the earliest price kept, block ${read.keptFromBlock} (${new Date(read.keptFrom!).toISOString()}, retention)`,
      }]);
    }
    const change = read.change;
    if (change === null || change.price === null) {
      const moment = 'time' in at ? at.time.toISOString() : `block ${at.block}`;
      throw new NotFoundError(`Token ${read.checksumAddress} had no price at ${moment}.`);
    }
    const head = read.head ?? null;
    const afterHead = head !== null && ('time' in at ? at.time.getTime() > head.time : at.block > head.blockNumber);
    const body = toJson<PriceAt>({
      contractAddress: read.checksumAddress,
      price: Number(change.price),
      timestamp: new Date(change.observedAt).toISOString(),
      blockNumber: change.blockNumber,
      ...(afterHead ? { afterHead: { blockNumber: head.blockNumber, timestamp: new Date(head.time).toISOString() } } : {}),
    });
    return { body, afterHead };
  };
}
