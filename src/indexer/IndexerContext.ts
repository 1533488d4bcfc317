// Everything a batch or a rollback needs, resolved once from the indexer options. It composes the
// parts each folder declares for itself (circulating/, trust/, pricing/, families/): nothing below
// the indexer's top level imports it, so imports point one way.
import type { ChainClient, FeedPhase, RawLog } from '../chain/index.ts';
import type { IndexerConfig } from '../config/indexerConfig.ts';
import type { Database, Queryable } from '../db/index.ts';
import type { CirculatingRules } from './circulating/circulatingRules.ts';
import type { IndexerLogger } from './context/IndexerLogger.ts';
import type { FactoryFamily } from './families/factoryFamilies.ts';
import type { TokenListEntry } from './loadTokenList.ts';
import type { PricingConfig } from './pricing/priceToken.ts';
import type { ListedSymbols } from './spam/spamReasons.ts';

export type IndexerContext = {
  db: Database;
  chain: ChainClient;
  /** What the contract checks read through: `chain`, or a client of the same budget at its idle priority. */
  checksChain: ChainClient;
  config: IndexerConfig;
  logger: IndexerLogger;
  chainId: number;
  pricing: PricingConfig;
  /**
   * The configured USD feed: its decimals once read, and the proxy's aggregator and phase at the last
   * block the head indexed (a forward batch starting right after it needs no read of its own).
   */
  usdFeed: { address: string; decimals: number | null; phaseAt: { block: number; phase: FeedPhase } | null } | null;
  /** isSecure = score > secureScoreMin AND market cap > secureMarketCapMinUsd (scaled by 10^36). */
  trust: { secureScoreMin: number; secureMarketCapMinUsd: bigint };
  /** Configured factories (lower-case) and the family of the pools they create. */
  factories: ReadonlyMap<string, FactoryFamily>;
  /** The pool a log belongs to: its emitter, or for a singleton manager's log (Uniswap V4) the pool the family names. */
  poolOf(log: RawLog): string;
  tokenList: ReadonlyMap<string, TokenListEntry>;
  /** The token list's symbols, for the impersonation lure (docs/spam.md). */
  listedSymbols: ListedSymbols;
  /**
   * The first statement of every write transaction: throws unless this process still holds the
   * writer lock and the checkpoint is still `expected` (the block the write continues from).
   */
  fence(tx: Queryable, expected: number | null): Promise<void>;
  /** Whose balances are not circulating, and the count of token reads that failed (figure kept). */
  circulating: { rules: CirculatingRules; failures: { count: number } };
};


export { silentLogger, type IndexerLogger } from './context/IndexerLogger.ts';
