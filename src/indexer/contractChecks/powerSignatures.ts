// Owner powers recognised by the functions a token exposes (docs/security-score.md). Each power
// lists the signatures of the common token implementations that carry it: OpenZeppelin,
// Circle's FiatToken (USDC), Tether's TetherToken (USDT) and common forks.
import { id } from 'ethers';

export type OwnerPower = 'mint' | 'pause' | 'blacklist';

export const POWER_SIGNATURES: Record<OwnerPower, readonly string[]> = {
  mint: ['mint(address,uint256)', 'mint(uint256)', 'mintTo(address,uint256)', 'issue(uint256)', 'configureMinter(address,uint256)'],
  pause: ['pause()', 'unpause()'],
  blacklist: [
    'blacklist(address)', 'unBlacklist(address)', 'addBlackList(address)', 'removeBlackList(address)', 'addToBlacklist(address)',
    'setBlacklist(address,bool)', 'blacklistAddress(address)', 'freeze(address)', 'destroyBlackFunds(address)',
  ],
};

const selector = (signature: string) => id(signature).slice(0, 10);

/** selector → [power, signature] */
export const POWER_BY_SELECTOR: ReadonlyMap<string, readonly [OwnerPower, string]> = new Map(
  (Object.entries(POWER_SIGNATURES) as [OwnerPower, readonly string[]][]).flatMap(([power, signatures]) =>
    signatures.map((s) => [selector(s), [power, s] as const] as const),
  ),
);

/** The powers found among `selectors`, each with the first signature that shows it. */
export function powersOf(selectors: ReadonlySet<string>): { power: OwnerPower; signature: string }[] {
  const found = new Map<OwnerPower, string>();
  for (const s of selectors) {
    const hit = POWER_BY_SELECTOR.get(s);
    if (hit && !found.has(hit[0])) found.set(hit[0], hit[1]);
  }
  return (['mint', 'pause', 'blacklist'] as const).filter((p) => found.has(p)).map((power) => ({ power, signature: found.get(power)! }));
}
