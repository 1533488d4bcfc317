// Many eth_calls in one through Multicall3.aggregate3 (allowFailure), or one by one without it.
import { Interface } from 'ethers';
import type { ChainClient } from './createChainClient.ts';
import { CallRevertedError } from './errors.ts';
import type { BlockTag } from './types.ts';

export type Call = { to: string; data: string };
export type CallResult = { ok: true; data: string } | { ok: false };

const multicall3 = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
]);
const CHUNK = 200;

export async function callMany(
  chain: ChainClient,
  calls: readonly Call[],
  blockTag: BlockTag,
  multicallAddress?: string | null,
): Promise<CallResult[]> {
  const results: CallResult[] = [];
  for (let i = 0; i < calls.length; i += CHUNK) {
    const chunk = calls.slice(i, i + CHUNK);
    const viaMulticall = multicallAddress ? await aggregate3(chain, chunk, blockTag, multicallAddress) : null;
    results.push(...(viaMulticall ?? (await Promise.all(chunk.map((c) => callOne(chain, c, blockTag))))));
  }
  return results;
}

async function callOne(chain: ChainClient, call: Call, blockTag: BlockTag): Promise<CallResult> {
  try {
    return { ok: true, data: await chain.call(call.to, call.data, blockTag) };
  } catch (error) {
    if (error instanceof CallRevertedError) return { ok: false };
    throw error;
  }
}

// Null when Multicall3 is absent at that block or the batch itself fails (a hostile call eating
// all gas): the caller then falls back to single calls.
async function aggregate3(chain: ChainClient, calls: readonly Call[], blockTag: BlockTag, address: string): Promise<CallResult[] | null> {
  const data = multicall3.encodeFunctionData('aggregate3', [calls.map((c) => [c.to, true, c.data])]);
  let raw: string;
  try {
    raw = await chain.call(address, data, blockTag);
  } catch (error) {
    if (error instanceof CallRevertedError) return null;
    throw error;
  }
  try {
    const [decoded] = multicall3.decodeFunctionResult('aggregate3', raw) as unknown as [[boolean, string][]];
    if (decoded.length !== calls.length) return null;
    return decoded.map(([success, returnData]) => (success ? { ok: true, data: returnData } : { ok: false }));
  } catch {
    return null;
  }
}
