// Many eth_calls in one through Multicall3.aggregate3 (allowFailure), or one by one without it.
import { decodeAggregate3, encodeAggregate3 } from './aggregate3Codec.ts';
import type { ChainClient } from './createChainClient.ts';
import { CallRevertedError } from './errors.ts';
import type { BlockTag } from './types.ts';

export type Call = { to: string; data: string };
export type CallResult = { ok: true; data: string } | { ok: false };

const CHUNK = 200;
/** Chunks in flight at once (the request budget still paces them). */
const PARALLEL_CHUNKS = 4;

export async function callMany(
  chain: ChainClient,
  calls: readonly Call[],
  blockTag: BlockTag,
  multicallAddress?: string | null,
): Promise<CallResult[]> {
  const chunks: Call[][] = [];
  for (let i = 0; i < calls.length; i += CHUNK) chunks.push(calls.slice(i, i + CHUNK));
  const answers: CallResult[][] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const index = next++;
      const chunk = chunks[index]!;
      const viaMulticall = multicallAddress ? await aggregate3(chain, chunk, blockTag, multicallAddress) : null;
      answers[index] = viaMulticall ?? (await Promise.all(chunk.map((c) => callOne(chain, c, blockTag))));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHUNKS, chunks.length) }, worker));
  return answers.flat();
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
  const data = encodeAggregate3(calls);
  let raw: string;
  try {
    raw = await chain.call(address, data, blockTag);
  } catch (error) {
    if (error instanceof CallRevertedError) return null;
    throw error;
  }
  const decoded = decodeAggregate3(raw);
  if (!decoded || decoded.length !== calls.length) return null;
  return decoded.map(({ success, returnData }) => (success ? { ok: true, data: returnData } : { ok: false }));
}
