import type { HolderBalance, SupplyAnswer } from './SupplySnapshot.ts';
import { formatTokenUnits } from './formatTokenUnits.ts';
import type { CirculatingSupplyBody, SupplyAmountBody, SupplyWalletsBody, TotalSupplyBody } from './types.ts';

const amount = (baseUnits: bigint, decimals: number): SupplyAmountBody => ({
  tokens: formatTokenUnits(baseUnits, decimals),
  baseUnits: baseUnits.toString(),
});

const wallets = (list: HolderBalance[], total: bigint, decimals: number): SupplyWalletsBody => ({
  wallets: list.map((h) => ({ address: h.address, label: h.label, balance: amount(h.balance, decimals) })),
  sum: amount(total, decimals),
});

// The fields both answers start with.
function header({ snapshot: s, stale }: SupplyAnswer) {
  return {
    contractAddress: s.token,
    symbol: s.symbol,
    decimals: s.decimals,
    blockNumber: s.blockNumber,
    blockTimestamp: new Date(s.blockTimestamp * 1000).toISOString(),
    readAt: new Date(s.readAt).toISOString(),
    stale,
    source: { kind: s.source.kind, method: s.source.method },
  };
}

export function toTotalSupplyBody(answer: SupplyAnswer): TotalSupplyBody {
  const s = answer.snapshot;
  return {
    ...header(answer),
    sourceSupply: amount(s.sourceSupply, s.decimals),
    burned: wallets(s.burned, s.burnedSum, s.decimals),
    totalSupply: amount(s.totalSupply, s.decimals),
  };
}

export function toCirculatingSupplyBody(answer: SupplyAnswer): CirculatingSupplyBody {
  const s = answer.snapshot;
  return {
    ...header(answer),
    totalSupply: amount(s.totalSupply, s.decimals),
    excluded: wallets(s.excluded, s.excludedSum, s.decimals),
    circulatingSupply: amount(s.circulatingSupply, s.decimals),
  };
}
