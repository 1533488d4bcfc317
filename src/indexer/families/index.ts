// Every DEX family the indexer reads, by the kind stored with its pools.
import type { PoolKind } from '../../db/indexer/index.ts';
import { algebra } from './algebra.ts';
import { etherexLegacy } from './etherexLegacy.ts';
import { pancakeV3 } from './pancakeV3.ts';
import type { PoolFamily } from './PoolFamily.ts';
import { solidly } from './solidly.ts';
import { syncSwap } from './syncSwap.ts';
import { uniswapV2 } from './uniswapV2.ts';
import { uniswapV3 } from './uniswapV3.ts';

export type { PoolFamily, CreatedPool, PoolLogEffect, BandDepth } from './PoolFamily.ts';
export { emptyState } from './PoolFamily.ts';

export const FAMILIES: Readonly<Record<PoolKind, PoolFamily>> = {
  v2: uniswapV2,
  solidly,
  etherex: etherexLegacy,
  syncswap: syncSwap,
  v3: uniswapV3,
  'pancake-v3': pancakeV3,
  algebra,
};

export const familyOf = (kind: PoolKind): PoolFamily => FAMILIES[kind];
