import type { PoolRow } from '../../db/index.ts';
import type { Pool } from '../types.ts';

const toNumber = (value: string | null): number | null => (value === null ? null : Number(value));

/** The spec's pool families: a family added to or dropped from its enum fails the type check here. */
const FAMILIES: Record<Pool['family'], true> = {
  'uniswap-v2': true,
  solidly: true,
  syncswap: true,
  'uniswap-v3': true,
  'pancakeswap-v3': true,
  algebra: true,
  'uniswap-v4': true,
};

const isFamily = (family: string): family is Pool['family'] => Object.hasOwn(FAMILIES, family);

/**
 * Stored pool row → API pool. Exact decimals become JSON numbers only here, at the edge. A
 * family the spec does not list is an error (the indexer writes only registered families).
 */
export function toPool(row: PoolRow): Pool {
  if (!isFamily(row.family)) throw new Error(`pool ${row.checksumAddress} has family ${JSON.stringify(row.family)}, which spec/openapi.yaml does not list`);
  return {
    address: row.checksumAddress,
    dex: row.dex,
    family: row.family,
    fee: row.fee,
    stable: row.stable,
    hooks: row.hooks,
    priceSourceExclusion: row.priceSourceExclusion === 'hook-returns-swap-delta' ? row.priceSourceExclusion : null,
    token0: { address: row.token0Checksum, symbol: row.token0Symbol, native: row.token0Native },
    token1: { address: row.token1Checksum, symbol: row.token1Symbol, native: row.token1Native },
    liquidity: toNumber(row.liquidity),
    volume24h: Number(row.volume24h),
    swaps24h: row.swaps24h,
    price: toNumber(row.price),
  };
}
