import type { SupplySource } from '../../config/supplyConfig.ts';

export type HolderBalance = { address: string; label: string; balance: bigint };

/** Every figure of one read, all at `blockNumber`; amounts in base units. */
export type SupplySnapshot = {
  /** Checksummed network token address. */
  token: string;
  symbol: string | null;
  decimals: number;
  blockNumber: number;
  /** Unix seconds of the block. */
  blockTimestamp: number;
  /** Epoch milliseconds when the read finished. */
  readAt: number;
  source: SupplySource;
  sourceSupply: bigint;
  burned: HolderBalance[];
  burnedSum: bigint;
  /** sourceSupply − burnedSum */
  totalSupply: bigint;
  excluded: HolderBalance[];
  excludedSum: bigint;
  /** totalSupply − excludedSum */
  circulatingSupply: bigint;
};

/** A snapshot as served: `stale` when the node failed and this is the last good one. */
export type SupplyAnswer = { snapshot: SupplySnapshot; stale: boolean; ageSeconds: number };
