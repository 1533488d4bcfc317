// Indexer configuration for the embedded demo network: its deployment's addresses, small batches.
import type { IndexerConfig } from '../config/indexerConfig.ts';
import { indexerDefaults } from '../config/indexerConfig.ts';
import { DEMO_CIRCULATING_CONFIG_PATH } from './circulatingFromDemo.ts';
import type { DemoDeployment } from './deploy.ts';

export function indexerConfigFromDemo(deployment: DemoDeployment, overrides: Partial<IndexerConfig> = {}): IndexerConfig {
  const at = (address: string) => ({ address: address.toLowerCase(), fromBlock: deployment.startBlock });
  return {
    network: 'demo',
    chainId: deployment.chainId,
    startBlock: deployment.startBlock,
    batchSize: 500,
    pollIntervalMs: 1000,
    confirmations: 0,
    // Every demo factory, from the block the deployment started at (none announces a pool before it).
    factories: {
      v2: deployment.v2Factories.map(at),
      v3: deployment.v3Factories.map(at),
      solidly: [at(deployment.familyFactories.solidly)],
      // the demo has no Etherex legacy pairs (tests deploy them)
      'pancake-v3': [at(deployment.familyFactories.pancakeV3)],
      algebra: [at(deployment.familyFactories.algebra)],
      'syncswap-classic': [at(deployment.familyFactories.syncSwapClassic)],
      'syncswap-stable': [at(deployment.familyFactories.syncSwapStable)],
      v4: [at(deployment.familyFactories.uniswapV4)],
    },
    stablecoins: deployment.stablecoins.map((a) => a.toLowerCase()),
    wrappedNative: deployment.weth.toLowerCase(),
    multicall3: deployment.multicall3.toLowerCase(),
    usdFeed: deployment.usdFeed.toLowerCase(),
    usdPeg: null,
    minLiquidityUsd: indexerDefaults.minLiquidityUsd,
    usdGuard: indexerDefaults.usdGuard,
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
