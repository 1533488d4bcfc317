// The contract half of the checks: is the token a proxy (EIP-1967 implementation or beacon slot,
// or the ZeppelinOS slot), who owns it, and which owner powers its running code exposes.
// RPC cost: eth_getCode, 5 × eth_getStorageAt, one eth_call (owner() and getOwner() through
// Multicall3), and for a proxy eth_getCode of the implementation (+1 eth_call for a beacon).
import { Interface } from 'ethers';
import { callMany, readCode, readStorageSlots, type ChainClient } from '../../chain/index.ts';
import type { ContractFindings } from './ContractFindings.ts';
import { functionSelectors } from './functionSelectors.ts';
import { powersOf } from './powerSignatures.ts';
import { addressInWord, PROXY_SLOT_ORDER } from './proxySlots.ts';

const views = new Interface(['function owner() view returns (address)', 'function getOwner() view returns (address)', 'function implementation() view returns (address)']);
const ZERO = '0x0000000000000000000000000000000000000000';
const DEAD = '0x000000000000000000000000000000000000dead';

export type ProxyAndPowers = Pick<ContractFindings, 'hasCode' | 'proxy' | 'owner' | 'ownerRenounced' | 'powers'>;

export async function readProxyAndPowers(chain: ChainClient, token: string, block: number, multicall: string | null | undefined): Promise<ProxyAndPowers> {
  const [code, words, owners] = await Promise.all([
    readCode(chain, token, block),
    readStorageSlots(chain, token, PROXY_SLOT_ORDER, block),
    callMany(chain, [{ to: token, data: views.encodeFunctionData('owner') }, { to: token, data: views.encodeFunctionData('getOwner') }], block, multicall),
  ]);
  const [implementation, beacon, admin1967, zosImplementation, zosAdmin] = words.map(addressInWord);
  let proxy: ContractFindings['proxy'] = null;
  if (implementation) proxy = { standard: 'eip1967', implementation, admin: admin1967 ?? null };
  else if (beacon) {
    const [answer] = await callMany(chain, [{ to: beacon, data: views.encodeFunctionData('implementation') }], block, multicall);
    const target = answer?.ok && answer.data.length >= 66 ? addressInWord(answer.data.slice(0, 66)) : null;
    if (target) proxy = { standard: 'eip1967-beacon', implementation: target, admin: beacon };
  } else if (zosImplementation) proxy = { standard: 'zeppelinos', implementation: zosImplementation, admin: zosAdmin ?? null };

  const running = proxy ? await readCode(chain, proxy.implementation, block) : code;
  const owner = owners.map((o) => (o.ok && o.data.length >= 66 ? (addressInWord(o.data.slice(0, 66)) ?? ZERO) : null)).find((o) => o !== null) ?? null;
  const renounced = owner === ZERO || owner === DEAD;
  return {
    hasCode: code !== '0x',
    proxy,
    owner: renounced ? null : owner,
    ownerRenounced: renounced,
    powers: powersOf(functionSelectors(running)),
  };
}
