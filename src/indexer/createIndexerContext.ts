// The indexer's context, resolved once per process: the node's chain id (checked against the
// configuration), the token list, the pricing and trust settings, the configured factories.
import type { ChainClient } from '../chain/index.ts';
import type { IndexerConfig } from '../config/indexerConfig.ts';
import type { Database } from '../db/index.ts';
import type { WriterLock } from '../db/indexer/index.ts';
import type { IndexerContext, IndexerLogger } from './IndexerContext.ts';
import type { CirculatingRules } from './circulating/circulatingRules.ts';
import { ChainMismatchError } from './errors.ts';
import { factoryFamilies } from './families/factoryFamilies.ts';
import { loadTokenList, type TokenListEntry } from './loadTokenList.ts';
import { parseFixed } from './math/fixed.ts';
import { createPricingConfig } from './pricing/priceToken.ts';
import { listedSymbolsOf } from './spam/spamReasons.ts';

export type ContextInput = {
  db: Database;
  chain: ChainClient;
  checksChain?: ChainClient;
  config: IndexerConfig;
  logger: IndexerLogger;
  lock: WriterLock;
  /** Pre-loaded token list; otherwise `config.tokenList` is read. */
  tokenList?: TokenListEntry[];
  circulating: { rules: CirculatingRules; failures: { count: number } };
};

export async function createIndexerContext(input: ContextInput): Promise<IndexerContext> {
  const { db, chain, config, logger, lock, circulating } = input;
  const chainId = await chain.getChainId();
  if (config.chainId !== undefined && config.chainId !== chainId) throw new ChainMismatchError(config.chainId, chainId);
  const list = input.tokenList ?? (config.tokenList ? await loadTokenList(config.tokenList, chainId) : []);
  const factories = factoryFamilies(config);
  return {
    db, chain, checksChain: input.checksChain ?? chain, config, logger, chainId,
    pricing: createPricingConfig({
      stablecoins: config.stablecoins, wrappedNative: config.wrappedNative, usdFeed: config.usdFeed, usdPeg: config.usdPeg,
      minLiquidityUsd: parseFixed(config.minLiquidityUsd), usdGuard: parseFixed(config.usdGuard),
    }),
    usdFeed: config.usdFeed && config.wrappedNative ? { address: config.usdFeed.toLowerCase(), decimals: null, phaseAt: null } : null,
    trust: { secureScoreMin: config.secureScoreMin, secureMarketCapMinUsd: parseFixed(config.secureMarketCapMinUsd) },
    factories,
    poolOf: (log) => factories.get(log.address)?.family.poolOf?.(log) ?? log.address,
    // Log and pool addresses are lower-case: so must the keys be, or a listed token is found twice.
    tokenList: new Map(list.map((t) => [t.address.toLowerCase(), { ...t, address: t.address.toLowerCase() }])),
    listedSymbols: listedSymbolsOf(list),
    fence: (tx, expected) => lock.fence(tx, expected),
    circulating,
  };
}
