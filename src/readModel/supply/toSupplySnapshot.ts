import type { SupplyConfig } from '../../config/supplyConfig.ts';
import type { SupplyReading } from '../../chain/readSupply.ts';
import { supplyFigures } from '../../chain/supply/supplyFigures.ts';
import type { SupplySnapshot } from './SupplySnapshot.ts';

/** Turns a reading (balances of burn addresses, then excluded wallets) into the served figures. */
export function toSupplySnapshot(token: string, config: SupplyConfig, reading: SupplyReading, readAt: number): SupplySnapshot {
  const balanceAt = (i: number) => reading.balances[i] ?? 0n;
  const burned = config.burnAddresses.map((b, i) => ({ ...b, balance: balanceAt(i) }));
  const offset = config.burnAddresses.length;
  const excluded = config.excludedWallets.map((w, i) => ({ ...w, balance: balanceAt(offset + i) }));
  // Only possible with an L1-synced source lagging behind L2 balances: refused rather than published negative.
  const { burnedSum, totalSupply, excludedSum, circulatingSupply } = supplyFigures(
    reading.sourceSupply, burned.map((b) => b.balance), excluded.map((w) => w.balance), `at block ${reading.blockNumber} (${config.source.method})`,
  );
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
