// eth_getTransactionReceipt: the sender and the logs of a mined transaction (null when the node has none).
import type { ChainClient } from '../createChainClient.ts';

export type ReceiptLog = { address: string; topics: string[]; data: string; logIndex: number };
export type Receipt = { from: string; status: boolean; logs: ReceiptLog[] };

type RpcReceipt = { from: string; status?: string; logs: { address: string; topics: string[]; data: string; logIndex: string }[] };

export async function readReceipt(chain: ChainClient, txHash: string): Promise<Receipt | null> {
  const r = await chain.request<RpcReceipt | null>('eth_getTransactionReceipt', [txHash]);
  if (!r) return null;
  return {
    from: r.from.toLowerCase(),
    status: r.status === undefined || Number(r.status) === 1,
    logs: r.logs.map((l) => ({ address: l.address.toLowerCase(), topics: l.topics.map((t) => t.toLowerCase()), data: l.data, logIndex: Number(l.logIndex) })),
  };
}
