// Block headers of many blocks, in JSON-RPC batches (each header still counts against the request budget).
import type { BlockHeader, ChainClient } from '../chain/index.ts';
import { ReorgDetectedError } from './errors.ts';

export async function fetchHeaders(chain: ChainClient, numbers: Iterable<number>): Promise<Map<number, BlockHeader>> {
  const wanted = [...new Set(numbers)].sort((a, b) => a - b);
  const found = await chain.getBlockHeaders(wanted);
  const headers = new Map<number, BlockHeader>();
  wanted.forEach((n, i) => {
    const header = found[i];
    // A block we were told exists is gone: the chain is reorganising under us.
    if (!header) throw new ReorgDetectedError(n);
    headers.set(n, header);
  });
  return headers;
}
