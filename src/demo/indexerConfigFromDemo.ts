// Indexer configuration for the embedded demo network: its deployment's addresses, small batches.
import type { IndexerConfig } from '../config/indexerConfig.ts';
import { indexerDefaults } from '../config/indexerConfig.ts';
import { DEMO_CIRCULATING_CONFIG_PATH } from './circulatingFromDemo.ts';
import type { DemoDeployment } from './deploy.ts';

export function indexerConfigFromDemo(deployment: DemoDeployment, overrides: Partial<IndexerConfig> = {}): IndexerConfig {
  return {
    network: 'demo',
    chainId: deployment.chainId,
    startBlock: deployment.startBlock,
    batchSize: 500,
    pollIntervalMs: 1000,
    confirmations: 0,
    v2Factories: deployment.v2Factories.map((a) => a.toLowerCase()),
    v3Factories: deployment.v3Factories.map((a) => a.toLowerCase()),
    solidlyFactories: [deployment.familyFactories.solidly.toLowerCase()],
    etherexLegacyFactories: [], // the demo has no Etherex legacy pairs (tests deploy them)
    pancakeV3Factories: [deployment.familyFactories.pancakeV3.toLowerCase()],
    algebraFactories: [deployment.familyFactories.algebra.toLowerCase()],
    syncSwapClassicFactories: [deployment.familyFactories.syncSwapClassic.toLowerCase()],
    syncSwapStableFactories: [deployment.familyFactories.syncSwapStable.toLowerCase()],
    stablecoins: deployment.stablecoins.map((a) => a.toLowerCase()),
    wrappedNative: deployment.weth.toLowerCase(),
    multicall3: deployment.multicall3.toLowerCase(),
    usdFeed: deployment.usdFeed.toLowerCase(),
    usdPeg: null,
    minLiquidityUsd: indexerDefaults.minLiquidityUsd,
    secureScoreMin: indexerDefaults.secureScoreMin,
    secureMarketCapMinUsd: indexerDefaults.secureMarketCapMinUsd,
    tokenList: null,
    reorgDepth: indexerDefaults.reorgDepth,
    supplyRefreshBlocks: indexerDefaults.supplyRefreshBlocks,
    circulatingConfig: DEMO_CIRCULATING_CONFIG_PATH,
    // Every demo token's contract is checked in the step that follows the history (a few dozen tokens).
    contractCheckMaxCalls: 1000,
    ...overrides,
  };
}
