// Tracks the highest block number that can no longer be reorganised, which decides what may be
// cached. Primary source: the node's `finalized` block. If the node does not know that tag (old
// client, no finality yet) the rule falls back to `latest - fallbackConfirmations`.
// The number is reused for ttlMs so a burst of lookups does not double the upstream load.
import { ChainError, type ChainClient } from '../chain/index.ts';
import { singleFlight } from './singleFlight.ts';

export interface FinalizedBlockOptions {
  ttlMs?: number;
  fallbackConfirmations?: number;
  now?: () => number;
}

export interface FinalizedBlock {
  /** Highest finalized block number, or null when it cannot be determined right now. */
  get(): Promise<bigint | null>;
}

export function finalizedBlock(client: Pick<ChainClient, 'request'>, options: FinalizedBlockOptions = {}): FinalizedBlock {
  const ttlMs = options.ttlMs ?? 2_000;
  const confirmations = BigInt(options.fallbackConfirmations ?? 64);
  const now = options.now ?? Date.now;
  const flight = singleFlight();
  let cached: { value: bigint; at: number } | undefined;

  async function fetchFinalized(): Promise<bigint> {
    try {
      const block = await client.request<{ number?: unknown } | null>('eth_getBlockByNumber', ['finalized', false]);
      if (block && typeof block.number === 'string') return BigInt(block.number);
    } catch (err) {
      // Only the node's JSON-RPC error means "tag not supported"; transport failures propagate.
      if (!(err instanceof ChainError && err.nodeError)) throw err;
    }
    const latest = await client.request<unknown>('eth_blockNumber');
    if (typeof latest !== 'string') throw new Error('eth_blockNumber returned a non-string');
    return BigInt(latest) - confirmations;
  }

  return {
    async get() {
      if (cached && now() - cached.at < ttlMs) return cached.value;
      try {
        const value = await flight('finalized', fetchFinalized);
        cached = { value, at: now() };
        return value;
      } catch {
        return null; // unknown finality: the caller simply does not cache
      }
    },
  };
}
