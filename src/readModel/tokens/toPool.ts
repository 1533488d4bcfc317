import type { PoolRow } from '../../db/index.ts';
import { COMPLETE_HISTORY, type HistoryView } from '../historyView.ts';
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
 * family the spec does not list is an error (the indexer writes only registered families). The
 * 24 h figures are null while the stored history does not cover 24 hours (`view`).
 */
export function toPool(row: PoolRow, view: HistoryView = COMPLETE_HISTORY): Pool {
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
    volume24h: view.windows.h24 ? Number(row.volume24h) : null,
    swaps24h: view.windows.h24 ? row.swaps24h : null,
    price: toNumber(row.price),
  };
}
