// Block times without a request per block: a log carries its block's time where the node adds
// `blockTimestamp` to logs; the header is read (in batches) only for a block that needs a time and
// has no such log. Times are exact either way (each is its own block's timestamp, never interpolated):
// INDEXER_HISTORY_BLOCK_TIMES=exact. The history fill's default reads fewer headers: bucketedBlockTimes.ts.
import type { ChainClient, RawLog } from '../chain/index.ts';
import { fetchHeaders } from './fetchHeaders.ts';

export type BlockTimes = {
  /** Chain time of a block asked for; throws for one that was not. */
  timeOf(block: number): Date;
  /** Headers read to find them (the rest came from the logs). */
  headersRead: number;
  /** Whether a block's time is interpolated (bucketedBlockTimes.ts) rather than its own; absent: never. */
  inexact?(block: number): boolean;
};

/** `known`: times already stored (a token's first block), read from neither. */
export async function blockTimes(chain: ChainClient, logs: readonly RawLog[], blocks: Iterable<number>, known: ReadonlyMap<number, Date> = new Map()): Promise<BlockTimes> {
  const seconds = new Map<number, number>();
  for (const [n, at] of known) seconds.set(n, Math.floor(at.getTime() / 1000));
  for (const log of logs) if (log.blockTimestamp !== undefined) seconds.set(log.blockNumber, log.blockTimestamp);
  const missing = [...new Set(blocks)].filter((n) => !seconds.has(n));
  const headers = missing.length > 0 ? await fetchHeaders(chain, missing) : new Map();
  for (const [n, header] of headers) seconds.set(n, header.timestamp);
  return {
    timeOf(block) {
      const s = seconds.get(block);
      if (s === undefined) throw new Error(`block ${block}: no time was read for it`);
      return new Date(s * 1000);
    },
    headersRead: headers.size,
  };
}
