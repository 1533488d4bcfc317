// What a history range hands to the next one (fillHistory.ts).
import type { PoolState } from '../db/indexer/index.ts';
import type { BlockTimeCache } from './bucketedBlockTimes.ts';

/**
 * Every pool's state in force before the last range filled (at its first block − 1): what the next
 * range, which ends there, starts from for the pools without events in it (a pool's state read by
 * call changes only with its events: docs/indexer.md, "Which pools are read at a − 1"). The
 * catalogue's head states for the first range. Kept in memory by the indexer between steps (a
 * restart reads every pool again).
 */
export type FillCarry = {
  fromBlock: number;
  states: ReadonlyMap<string, PoolState | null>;
  /** Headers read and 5-minute boundaries found by the bucketed block times (bucketedBlockTimes.ts). */
  blockTimes?: BlockTimeCache;
};
