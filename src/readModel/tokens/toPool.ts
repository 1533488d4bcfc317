import type { PoolRow } from '../../db/index.ts';
import type { Pool } from '../types.ts';

const toNumber = (value: string | null): number | null => (value === null ? null : Number(value));

/** Stored pool row → API pool. Exact decimals become JSON numbers only here, at the edge. */
export function toPool(row: PoolRow): Pool {
  return {
    address: row.checksumAddress,
    dex: row.dex,
    family: row.family as Pool['family'],
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
