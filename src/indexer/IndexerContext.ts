// Everything a batch or a rollback needs, resolved once from the indexer options.
import type { ChainClient } from '../chain/index.ts';
import type { IndexerConfig } from '../config/indexerConfig.ts';
import type { Database, Queryable } from '../db/index.ts';
import type { CirculatingRules } from './circulating/circulatingRules.ts';
import type { FactoryFamily } from './families/factoryFamilies.ts';
import type { TokenListEntry } from './loadTokenList.ts';
import type { PricingConfig } from './priceToken.ts';

/** The subset of pino's logger the indexer calls. */
export type IndexerLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
};

export type IndexerContext = {
  db: Database;
  chain: ChainClient;
  config: IndexerConfig;
  logger: IndexerLogger;
  chainId: number;
  pricing: PricingConfig;
  /** Scaled by 10^36. */
  secureFdvMinUsd: bigint;
  /** Configured factories (lower-case) and the family of the pools they create. */
  factories: ReadonlyMap<string, FactoryFamily>;
  tokenList: ReadonlyMap<string, TokenListEntry>;
  /**
   * The first statement of every write transaction: throws unless this process still holds the
   * writer lock and the checkpoint is still `expected` (the block the write continues from).
   */
  fence(tx: Queryable, expected: number | null): Promise<void>;
  /** Whose balances are not circulating, and the count of token reads that failed (figure kept). */
  circulating: { rules: CirculatingRules; failures: { count: number } };
};

export const silentLogger: IndexerLogger = { info() {}, warn() {}, error() {}, debug() {} };
