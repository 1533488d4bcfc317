// Storage slots where proxies keep their implementation, beacon and admin.
// EIP-1967: keccak256(label) − 1; ZeppelinOS (older OpenZeppelin proxies, USDC's FiatTokenProxy): keccak256(label).
import { id, toBeHex } from 'ethers';

const eip1967 = (label: string) => toBeHex(BigInt(id(label)) - 1n, 32);

export const PROXY_SLOTS = {
  eip1967Implementation: eip1967('eip1967.proxy.implementation'),
  eip1967Beacon: eip1967('eip1967.proxy.beacon'),
  eip1967Admin: eip1967('eip1967.proxy.admin'),
  zosImplementation: id('org.zeppelinos.proxy.implementation'),
  zosAdmin: id('org.zeppelinos.proxy.admin'),
} as const;

/** The address held in the low 20 bytes of a storage word; null for an empty slot. */
export function addressInWord(word: string): string | null {
  const value = BigInt(word === '0x' ? 0 : word);
  if (value === 0n) return null;
  return `0x${(value & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`;
}
