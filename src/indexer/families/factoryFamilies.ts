// Which family each configured factory belongs to, by the factory type it is listed under. An
// unknown type, or a factory listed under two types (its creation events would be read twice), is
// a configuration error.
import type { IndexerConfig } from '../../config/indexerConfig.ts';
import { envNameOfFactoryType } from '../../config/factoryConfig.ts';
import { ConfigError } from '../../errors/index.ts';
import { FACTORY_TYPES } from './index.ts';
import type { PoolFamily } from './PoolFamily.ts';

/** A configured factory: its family, the option its type fixes (SyncSwap's stable flag), its first block. */
export type FactoryFamily = { family: PoolFamily; stable: boolean | null; fromBlock: number };

export function factoryFamilies(config: Pick<IndexerConfig, 'factories'>): Map<string, FactoryFamily> {
  const out = new Map<string, FactoryFamily>();
  const problems: string[] = [];
  const twice: string[] = [];
  for (const [type, factories] of Object.entries(config.factories)) {
    const known = FACTORY_TYPES.get(type);
    if (!known) {
      problems.push(`factory type ${JSON.stringify(type)} (${envNameOfFactoryType(type)}): not a family this indexer reads; the types are ${[...FACTORY_TYPES.keys()].join(', ')}`);
      continue;
    }
    for (const factory of factories) {
      if (out.has(factory.address)) twice.push(factory.address);
      out.set(factory.address, { family: known.family, stable: known.stable, fromBlock: factory.fromBlock });
    }
  }
  if (twice.length > 0) problems.push(`factories listed under two types: ${twice.join(', ')}`);
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}
