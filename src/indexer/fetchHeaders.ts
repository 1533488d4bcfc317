// Block headers of many blocks with bounded concurrency (the client's rate limit still applies).
import type { BlockHeader, ChainClient } from '../chain/index.ts';
import { ReorgDetectedError } from './errors.ts';

export async function fetchHeaders(chain: ChainClient, numbers: Iterable<number>, concurrency = 16): Promise<Map<number, BlockHeader>> {
  const queue = [...new Set(numbers)].sort((a, b) => a - b);
  const headers = new Map<number, BlockHeader>();
  const worker = async () => {
    for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
      const header = await chain.getBlockHeader(n);
      // A block we were told exists is gone: the chain is reorganising under us.
      if (!header) throw new ReorgDetectedError(n);
      headers.set(n, header);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  return headers;
}
