// What the indexer keeps in memory between batches; always equal to what is stored once a batch commits.
import type { Queryable } from '../../db/index.ts';
import { loadContractChecks, loadTokenTrust } from '../../db/index.ts';
import type { ContractFindings } from '../contractChecks/ContractFindings.ts';
import { parseFixed } from '../math/fixed.ts';
import type { SpamReason } from '../spam/spamReasons.ts';
import { loadIndexerTokens, loadLatestFeedAnswer, loadPools, loadPricesAt, loadPriceValueTimes, type IndexerToken, type PriceChange, type StoredPool } from '../../db/indexer/index.ts';

/**
 * `source`: the pool the price comes from, or the anchor (priceWithSource); null without a price.
 * `observedAt`: the time of the last change (of value or source); `valueSince`: the time the price
 * took its present value (the token's priceUpdatedAt).
 */
export type CurrentPrice = { price: bigint | null; blockNumber: number; observedAt: Date; valueSince: Date; source: string | null };

/** The USD feed's latest answer, scaled by 10^36, and the time the feed says it was updated. */
export type FeedAnswer = { price: bigint; updatedAt: Date; blockNumber: number };

/** Block headers to read ahead of the moving window edges: how far each edge's rows were queued, and the queue (exactEdgeTimes.ts). */
export type EdgeLookahead = { through: Map<number, number>; queue: number[] };

/** Per token, its price at each window's start (by window name; null: no change before it). */
export type WindowPriceCache = Map<string, Record<string, PriceChange | null>>;

export type IndexerState = {
  tokens: Map<string, IndexerToken>;
  pools: Map<string, StoredPool>;
  poolsByToken: Map<string, Set<string>>;
  prices: Map<string, CurrentPrice>;
  /** Null until the configured feed answered (or when none is configured). */
  feed: FeedAnswer | null;
  /** Swaps over the last 24 h per token, as refreshSwapCounts last stored them (absent: 0). */
  swaps24h: Map<string, number>;
  /** The trust columns last written per token (writeTokenTrust writes only changes). */
  trustWritten: Map<string, string>;
  /** Each token's lures, found once: its name and symbol never change once stored (luresOf). */
  lures: Map<string, readonly SpamReason[]>;
  /** The latest contract check of each checked token (checkContracts). */
  contractChecks: Map<string, { checkedAt: Date; blockNumber: number; findings: ContractFindings }>;
  /**
   * The chain time at which writeBatch last stored every token's window prices, 24 h swap figures
   * and score: the next batch rewrites only the rows that moved since (window starts passing a price
   * change, swaps entering and leaving, changed inputs, ages passing an hour or day). Unset in a state
   * loaded or built anew, and after retention ran: that batch recomputes every token.
   */
  windowsWrittenAt?: Date;
  /** Retention or pruning a batch that repriced much of the catalogue left to the next (maintenanceDue.ts); lost with a reload (then due at the next multiple). */
  maintenanceLeft?: { retention: boolean; prune: boolean };
  /** Window-start prices as at windowsWrittenAt of the tokens last written (pricing/windowPriceCache.ts). */
  windowPrices?: WindowPriceCache;
  /** Block times read for the moving window edges (exactEdgeTimes.ts), kept between batches. */
  edgeTimes?: Map<number, Date>;
  /** The headers still to read ahead of those edges (exactEdgeTimes.ts EdgeLookahead). */
  edgeLookahead?: EdgeLookahead;
};

export async function loadIndexerState(db: Queryable): Promise<IndexerState> {
  const state: IndexerState = {
    tokens: new Map(), pools: new Map(), poolsByToken: new Map(), prices: new Map(), feed: await loadLatestFeedAnswer(db),
    swaps24h: new Map(), trustWritten: new Map(), lures: new Map(), contractChecks: new Map(),
  };
  for (const token of await loadIndexerTokens(db)) state.tokens.set(token.address, token);
  for (const pool of await loadPools(db)) addPool(state, pool);
  const valueTimes = await loadPriceValueTimes(db);
  for (const [token, change] of await loadPricesAt(db, null)) {
    state.prices.set(token, {
      price: change.price === null ? null : parseFixed(change.price),
      blockNumber: change.blockNumber,
      observedAt: change.observedAt,
      valueSince: valueTimes.get(token) ?? change.observedAt,
      source: change.source ?? null,
    });
  }
  for (const row of await loadTokenTrust(db)) {
    if (row.swaps > 0) state.swaps24h.set(row.address, row.swaps);
    state.trustWritten.set(row.address, row.trust);
  }
  for (const row of await loadContractChecks(db)) {
    state.contractChecks.set(row.token, { checkedAt: row.checkedAt, blockNumber: row.blockNumber, findings: JSON.parse(row.findings) as ContractFindings });
  }
  return state;
}

export function addPool(state: IndexerState, pool: StoredPool): void {
  state.pools.set(pool.address, pool);
  for (const token of [pool.token0, pool.token1]) {
    let set = state.poolsByToken.get(token);
    if (!set) state.poolsByToken.set(token, (set = new Set()));
    set.add(pool.address);
  }
}
