// Many eth_calls in one through Multicall3.aggregate3 (allowFailure), or one by one without it.
// Calls through Multicall3 asked for in the same turn of the event loop, of one client at one
// block, go out together (as viem's multicall batching does): a step's total supplies and
// circulating balances, read side by side, cost one request instead of two.
import { decodeAggregate3, encodeAggregate3 } from './aggregate3Codec.ts';
import type { ChainClient } from './createChainClient.ts';
import { CallRevertedError } from './errors.ts';
import type { BlockTag } from './types.ts';

export type Call = { to: string; data: string };
export type CallResult = { ok: true; data: string } | { ok: false };

const CHUNK = 200;
/** Chunks in flight at once (the request budget still paces them). */
const PARALLEL_CHUNKS = 4;

/** Calls waiting for the end of the event loop's turn, per client, per Multicall3 address and block. */
type Waiting = { calls: Call[]; callers: { from: number; to: number; resolve: (r: CallResult[]) => void; reject: (e: unknown) => void }[] };
const waitingByClient = new WeakMap<ChainClient, Map<string, Waiting>>();

export function callMany(
  chain: ChainClient,
  calls: readonly Call[],
  blockTag: BlockTag,
  multicallAddress?: string | null,
): Promise<CallResult[]> {
  if (!multicallAddress || calls.length === 0) return runCalls(chain, calls, blockTag, multicallAddress);
  let waiting = waitingByClient.get(chain);
  if (!waiting) waitingByClient.set(chain, (waiting = new Map()));
  const key = `${multicallAddress.toLowerCase()}@${String(blockTag)}`;
  let group = waiting.get(key);
  if (!group) {
    const started: Waiting = { calls: [], callers: [] };
    waiting.set(key, started);
    setImmediate(() => {
      waiting.delete(key);
      runCalls(chain, started.calls, blockTag, multicallAddress).then(
        (results) => started.callers.forEach((c) => c.resolve(results.slice(c.from, c.to))),
        (error: unknown) => started.callers.forEach((c) => c.reject(error)),
      );
    });
    group = started;
  }
  const joined = group;
  return new Promise((resolve, reject) => {
    const from = joined.calls.length;
    for (const call of calls) joined.calls.push(call);
    joined.callers.push({ from, to: joined.calls.length, resolve, reject });
  });
}

async function runCalls(
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
