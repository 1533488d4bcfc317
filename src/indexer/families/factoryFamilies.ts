// Which family each configured factory belongs to. A factory listed under two families is an error:
// its creation events could then be read twice.
import type { IndexerConfig } from '../../config/indexerConfig.ts';
import { ConfigError } from '../../errors/index.ts';
import { FAMILIES } from './index.ts';
import type { PoolFamily } from './PoolFamily.ts';

/** A configured factory: its family and, for factories of one pool type (SyncSwap), that type. */
export type FactoryFamily = { family: PoolFamily; stable: boolean | null };

export function factoryFamilies(config: IndexerConfig): Map<string, FactoryFamily> {
  const lists: [string[], FactoryFamily][] = [
    [config.v2Factories, { family: FAMILIES.v2, stable: null }],
    [config.v3Factories, { family: FAMILIES.v3, stable: null }],
    [config.solidlyFactories, { family: FAMILIES.solidly, stable: null }],
    [config.etherexLegacyFactories, { family: FAMILIES.etherex, stable: null }],
    [config.pancakeV3Factories, { family: FAMILIES['pancake-v3'], stable: null }],
    [config.algebraFactories, { family: FAMILIES.algebra, stable: null }],
    [config.syncSwapClassicFactories, { family: FAMILIES.syncswap, stable: false }],
    [config.syncSwapStableFactories, { family: FAMILIES.syncswap, stable: true }],
  ];
  const out = new Map<string, FactoryFamily>();
  const twice: string[] = [];
  for (const [addresses, family] of lists) {
    for (const a of addresses) {
      const key = a.toLowerCase();
      if (out.has(key)) twice.push(key);
      out.set(key, family);
    }
  }
  if (twice.length > 0) throw new ConfigError([`factories listed under two families: ${twice.join(', ')}`]);
  return out;
}
