// The security reasons of a token's contract findings (docs/security-score.md, "Contract checks").
// Owner powers cost points only while someone holds them: an owner that has not renounced, or a
// proxy admin. A proxy lets its admin replace the code, so it costs points of its own.
import type { ContractFindings } from './ContractFindings.ts';

export type ContractReasonCode = 'upgradeable' | 'owner' | 'mint' | 'pause' | 'blacklist' | 'sell-reverts' | 'transfer-tax' | 'sellable' | 'sell-untested';
export type ContractReason = { code: ContractReasonCode; impact: number; detail: string };

export const CONTRACT_WEIGHTS = {
  upgradeable: -5,
  owner: -1,
  mint: -3,
  pause: -1,
  blacklist: -2,
  sellReverts: -80,
  /** Tax in basis points, at least → impact. */
  transferTax: [[1000, -40], [200, -25], [50, -10]] as const,
} as const;

const STANDARD = { eip1967: 'EIP-1967', 'eip1967-beacon': 'EIP-1967 beacon', zeppelinos: 'ZeppelinOS' } as const;
const pct = (bps: number) => `${(bps / 100).toFixed(1)} %`;

export function contractReasons(f: ContractFindings): ContractReason[] {
  const w = CONTRACT_WEIGHTS;
  const reasons: ContractReason[] = [];
  if (f.proxy) {
    const admin = f.proxy.admin ? `, ${f.proxy.standard === 'eip1967-beacon' ? 'beacon' : 'admin'} ${f.proxy.admin}` : '';
    reasons.push({ code: 'upgradeable', impact: w.upgradeable, detail: `Upgradeable proxy (${STANDARD[f.proxy.standard]}): implementation ${f.proxy.implementation}${admin}` });
  }
  if (f.owner) reasons.push({ code: 'owner', impact: w.owner, detail: `Owner ${f.owner} has not renounced ownership` });
  const holder = f.owner ? 'the owner' : f.proxy?.admin ? 'the proxy admin (by an upgrade)' : null;
  if (holder) {
    for (const { power, signature } of f.powers) {
      reasons.push({ code: power, impact: w[power], detail: `${signature} in the ${f.proxy ? "implementation's" : "token's"} code; ${holder} can use it` });
    }
  }
  const sell = f.sell;
  if (sell.result === 'untested') reasons.push({ code: 'sell-untested', impact: 0, detail: `Sale not simulated: ${sell.why}` });
  else if (sell.result === 'reverts') {
    reasons.push({ code: 'sell-reverts', impact: w.sellReverts, detail: `A sale from recent buyer ${sell.holder} into pool ${sell.pool} reverts: ${sell.error ?? 'reverted'}` });
  } else reasons.push({ code: 'sellable', impact: 0, detail: `A sale by recent buyer ${sell.holder} simulates` });
  const worst = f.taxes.reduce<ContractFindings['taxes'][number] | null>((a, t) => (a && a.bps >= t.bps ? a : t), null);
  if (worst) {
    const impact = w.transferTax.find(([min]) => worst.bps >= min)?.[1] ?? 0;
    const what = worst.side === 'buy' ? 'the buyer received' : 'the pool received';
    reasons.push({ code: 'transfer-tax', impact, detail: `A ${worst.side} lost ${pct(worst.bps)} to a fee on transfer: ${what} less than the swap moved (tx ${worst.tx})` });
  }
  return reasons;
}
