import type { SupplyConfig } from '../../config/supplyConfig.ts';
import type { SupplyReading } from '../../chain/readSupply.ts';
import { SupplyReadError } from '../../chain/supply/SupplyReadError.ts';
import type { HolderBalance, SupplySnapshot } from './SupplySnapshot.ts';

const sum = (list: HolderBalance[]) => list.reduce((acc, h) => acc + h.balance, 0n);

/** Turns a reading (balances of burn addresses, then excluded wallets) into the served figures. */
export function toSupplySnapshot(token: string, config: SupplyConfig, reading: SupplyReading, readAt: number): SupplySnapshot {
  const balanceAt = (i: number) => reading.balances[i] ?? 0n;
  const burned = config.burnAddresses.map((b, i) => ({ ...b, balance: balanceAt(i) }));
  const offset = config.burnAddresses.length;
  const excluded = config.excludedWallets.map((w, i) => ({ ...w, balance: balanceAt(offset + i) }));
  const burnedSum = sum(burned);
  const excludedSum = sum(excluded);
  const totalSupply = reading.sourceSupply - burnedSum;
  const circulatingSupply = totalSupply - excludedSum;
  // Only possible with an L1-synced source lagging behind L2 balances: refuse rather than publish a negative supply.
  if (totalSupply < 0n || circulatingSupply < 0n)
    throw new SupplyReadError(`inconsistent figures at block ${reading.blockNumber}: ${config.source.method} ${reading.sourceSupply}, burned ${burnedSum}, excluded ${excludedSum}`);
  return {
    token,
    symbol: reading.symbol,
    decimals: reading.decimals,
    blockNumber: reading.blockNumber,
    blockTimestamp: reading.blockTimestamp,
    readAt,
    source: config.source,
    sourceSupply: reading.sourceSupply,
    burned,
    burnedSum,
    totalSupply,
    excluded,
    excludedSum,
    circulatingSupply,
  };
}
