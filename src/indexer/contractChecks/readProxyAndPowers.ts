// The contract half of the checks: is the token a proxy (EIP-1967 implementation or beacon slot,
// or the ZeppelinOS slot), who owns it, and which owner powers its running code exposes.
// The code is read first; the proxy slots only when that code can delegate (canDelegate: a
// contract without DELEGATECALL or CALLCODE cannot be a proxy in effect), one slot at a time and
// only those the answer needs: the EIP-1967 implementation, then its admin when it is set, else
// the beacon, else the ZeppelinOS implementation and then its admin.
// The owner() and getOwner() calls (ownerCalls) can ride in another Multicall3 aggregate3 of the
// same check (the holders' balances, checkSellability's `alongside`): readProxy then reads the rest.
// RPC cost: eth_getCode (+ one eth_call for owner() and getOwner() when they ride alone); for code
// that can delegate, 1–4 × eth_getStorageAt (3 when it is no proxy), and for a proxy eth_getCode
// of the implementation (+1 eth_call for a beacon).
import { Interface } from 'ethers';
import { callMany, readCode, readStorageSlots, type Call, type CallResult, type ChainClient } from '../../chain/index.ts';
import type { ContractFindings } from './ContractFindings.ts';
import { functionSelectors } from './functionSelectors.ts';
import { powersOf } from './powerSignatures.ts';
import { canDelegate } from './canDelegate.ts';
import { addressInWord, PROXY_SLOTS } from './proxySlots.ts';

const views = new Interface(['function owner() view returns (address)', 'function getOwner() view returns (address)', 'function implementation() view returns (address)']);
const ZERO = '0x0000000000000000000000000000000000000000';
const DEAD = '0x000000000000000000000000000000000000dead';

export type ProxyAndPowers = Pick<ContractFindings, 'hasCode' | 'proxy' | 'owner' | 'ownerRenounced' | 'powers'>;

/** owner() and getOwner() of a token, for ownerOf. */
export const ownerCalls = (token: string): Call[] => [{ to: token, data: views.encodeFunctionData('owner') }, { to: token, data: views.encodeFunctionData('getOwner') }];

/** The code, the proxy and the code that runs (the implementation's for a proxy). */
export type ProxyAndCode = { code: string; proxy: ContractFindings['proxy']; running: string };

export async function readProxy(chain: ChainClient, token: string, block: number, multicall: string | null | undefined): Promise<ProxyAndCode> {
  const code = await readCode(chain, token, block);
  const proxy = canDelegate(code) ? await proxyOf(chain, token, block, multicall) : null;
  return { code, proxy, running: proxy ? await readCode(chain, proxy.implementation, block) : code };
}

/** The findings from the code read and the answers to ownerCalls. */
export function proxyAndPowers(read: ProxyAndCode, owners: readonly CallResult[]): ProxyAndPowers {
  const owner = owners.map((o) => (o.ok && o.data.length >= 66 ? (addressInWord(o.data.slice(0, 66)) ?? ZERO) : null)).find((o) => o !== null) ?? null;
  const renounced = owner === ZERO || owner === DEAD;
  return {
    hasCode: read.code !== '0x',
    proxy: read.proxy,
    owner: renounced ? null : owner,
    ownerRenounced: renounced,
    powers: powersOf(functionSelectors(read.running)),
  };
}

/** The contract half on its own: the owner calls in an eth_call of their own. */
export async function readProxyAndPowers(chain: ChainClient, token: string, block: number, multicall: string | null | undefined): Promise<ProxyAndPowers> {
  const [read, owners] = await Promise.all([readProxy(chain, token, block, multicall), callMany(chain, ownerCalls(token), block, multicall)]);
  return proxyAndPowers(read, owners);
}

/** The proxy a contract that can delegate is, from its slots (null: none set). */
async function proxyOf(chain: ChainClient, token: string, block: number, multicall: string | null | undefined): Promise<ContractFindings['proxy']> {
  const slot = async (at: string) => addressInWord((await readStorageSlots(chain, token, [at], block))[0]!);
  const implementation = await slot(PROXY_SLOTS.eip1967Implementation);
  if (implementation) return { standard: 'eip1967', implementation, admin: await slot(PROXY_SLOTS.eip1967Admin) };
  const beacon = await slot(PROXY_SLOTS.eip1967Beacon);
  if (beacon) {
    const [answer] = await callMany(chain, [{ to: beacon, data: views.encodeFunctionData('implementation') }], block, multicall);
    const target = answer?.ok && answer.data.length >= 66 ? addressInWord(answer.data.slice(0, 66)) : null;
    return target ? { standard: 'eip1967-beacon', implementation: target, admin: beacon } : null;
  }
  const zosImplementation = await slot(PROXY_SLOTS.zosImplementation);
  return zosImplementation ? { standard: 'zeppelinos', implementation: zosImplementation, admin: await slot(PROXY_SLOTS.zosAdmin) } : null;
}
