// The DEX-family registry: every family the indexer reads, each declared once in its own module.
// Outside spec/, generated/ and this folder nothing lists families; the SQL CHECK on
// indexer_pools.kind lists the same kinds (a test compares them).
import { ConfigError } from '../../errors/index.ts';
import { algebra } from './algebra.ts';
import { etherexLegacy } from './etherexLegacy.ts';
import { pancakeV3 } from './pancakeV3.ts';
import type { FactoryType, PoolFamily } from './PoolFamily.ts';
import { solidly } from './solidly.ts';
import { syncSwap } from './syncSwap.ts';
import { uniswapV2 } from './uniswapV2.ts';
import { uniswapV3 } from './uniswapV3.ts';
import { uniswapV4 } from './uniswapV4.ts';

export type { PoolFamily, CreatedPool, PoolLogEffect, BandDepth, ApiFamily, FactoryType } from './PoolFamily.ts';
export { emptyState } from './PoolFamily.ts';

export const FAMILIES: readonly PoolFamily[] = [uniswapV2, solidly, etherexLegacy, syncSwap, uniswapV3, pancakeV3, algebra, uniswapV4];

const byKind = new Map(FAMILIES.map((f) => [f.kind, f]));

/** Every stored pool kind. */
export const POOL_KINDS: readonly string[] = FAMILIES.map((f) => f.kind);

/** The family of a stored pool kind; throws for a kind no family declares (a database written by another version). */
export function familyOf(kind: string): PoolFamily {
  const family = byKind.get(kind);
  if (!family) throw new ConfigError([`pool kind ${JSON.stringify(kind)} is not one this version reads (${POOL_KINDS.join(', ')})`]);
  return family;
}

/** Every factory type the configuration may list factories under, with its family. */
export const FACTORY_TYPES: ReadonlyMap<string, { family: PoolFamily } & FactoryType> = new Map(
  FAMILIES.flatMap((family) => Object.entries(family.factoryTypes).map(([type, options]) => [type, { family, ...options }] as const)),
);
