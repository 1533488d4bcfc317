// A chain client that answers block headers only, from a time function over [first, last], counting
// each header it is asked for (single or in a batch): the block-time rules' tests read times through it.
import type { BlockHeader, ChainClient } from '../../../src/chain/index.ts';

export function headerChain(timeOf: (n: number) => number, first: number, last: number) {
  const stats = { headers: 0 };
  const header = (n: number): BlockHeader | null =>
    n >= first && n <= last ? { number: n, hash: `0x${n.toString(16)}`, parentHash: `0x${(n - 1).toString(16)}`, timestamp: timeOf(n) } : null;
  const chain = {
    async getBlockHeader(n: number) {
      stats.headers++;
      return header(n);
    },
    async getBlockHeaders(ns: readonly number[]) {
      stats.headers += ns.length;
      return ns.map(header);
    },
  } as unknown as ChainClient;
  return { chain, stats };
}
