// The indexer preset of the simulated network, in the format of config/networks/*.json (the
// `factories` map by family type), so that INDEXER_NETWORK_FILE runs the indexer against the
// simulator exactly as against Linea.
import type { SimChain } from './chain.ts';
import { FAMILIES, STABLES, WETH } from './world.ts';

const NAMES: Record<string, string> = {
  v2: 'Sim Uniswap V2', solidly: 'Sim Lynex V1 (Solidly)', 'etherex-legacy': 'Sim Etherex legacy', 'syncswap-classic': 'Sim SyncSwap classic',
  'syncswap-stable': 'Sim SyncSwap stable', v3: 'Sim Uniswap V3', 'pancake-v3': 'Sim PancakeSwap V3', algebra: 'Sim Lynex CL (Algebra)', v4: 'Sim Uniswap V4 PoolManager',
};

export function presetOf(chain: SimChain) {
  const w = chain.world;
  const factories: Record<string, { address: string; fromBlock: number; name: string; source: string }[]> = {};
  for (const family of FAMILIES) {
    const first = w.pools.filter((p) => p.family === family).map((p) => p.createdBlock);
    if (first.length === 0) continue;
    factories[family] = [{ address: w.factories[family], fromBlock: Math.min(...first), name: NAMES[family]!, source: `linea-sim seed ${w.seed}, profile ${w.profile.name}: its first pool's block` }];
  }
  return {
    chainId: 59144,
    batchSize: 2000,
    pollIntervalMs: 2000,
    confirmations: 0,
    factories,
    stablecoins: STABLES.map((i) => w.tokens[i]!.address),
    wrappedNative: w.tokens[WETH]!.address,
    multicall3: w.addresses.multicall3,
    minLiquidityUsd: '10000',
    usdFeed: w.addresses.feed,
    secureScoreMin: 70,
    secureMarketCapMinUsd: '50000',
    tokenList: 'none',
  };
}
