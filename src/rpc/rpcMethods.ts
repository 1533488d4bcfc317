// Handlers for the methods declared in spec/openrpc.json. Params arrive already validated.
// Caching rule: a non-null transaction whose block is at or below the finalized block never
// changes, so it is kept in a bounded LRU; tag-based, pending, null and not-yet-final answers
// always go to the node. Identical concurrent upstream calls are merged (single flight).
import { LRUCache } from 'lru-cache';
import type { ChainClient } from '../chain/index.ts';
import type { FinalizedBlock } from './finalizedBlock.ts';
import { normalizeTransaction } from './normalizeTransaction.ts';
import { singleFlight } from './singleFlight.ts';
import type {
  BlockNumberOrTag,
  ChainId,
  TransactionHashParam,
  TransactionIndexParam,
  TransactionResult,
} from '../../generated/rpc/types.ts';

export type RpcHandler = (params: unknown[]) => Promise<unknown>;

export interface RpcMethodsDeps {
  client: Pick<ChainClient, 'request'>;
  finalized: FinalizedBlock;
  cacheSize: number;
  /** Reports each cache lookup (for the hit ratio metric). */
  onCacheLookup?: (hit: boolean) => void;
  /** How long after its start an upstream call is shared with identical new requests (default 250 ms). */
  shareWindowMs?: number;
}

export function rpcMethods(deps: RpcMethodsDeps): Map<string, RpcHandler> {
  const { client, finalized } = deps;
  // Values are JSON results (objects); a boxed entry so lru-cache's non-null rule is kept simple.
  // cacheSize 0 disables caching (useful to measure or debug the upstream path).
  const cache = deps.cacheSize > 0 ? new LRUCache<string, { value: TransactionResult }>({ max: deps.cacheSize }) : undefined;
  const flight = singleFlight({ joinWindowMs: deps.shareWindowMs });
  let chainId: ChainId | undefined;

  async function lookup(key: string, method: string, params: unknown[], cacheable: boolean): Promise<TransactionResult> {
    const hit = cache?.get(key);
    if (cache) deps.onCacheLookup?.(hit !== undefined);
    if (hit) return hit.value;
    return flight(key, async () => {
      const tx = normalizeTransaction(await client.request(method, params)) as TransactionResult;
      if (cache && cacheable && tx !== null && (await isFinal(tx.blockNumber))) cache.set(key, { value: tx });
      return tx;
    });
  }

  async function isFinal(blockNumber: unknown): Promise<boolean> {
    if (typeof blockNumber !== 'string') return false; // pending transaction
    const final = await finalized.get();
    return final !== null && BigInt(blockNumber) <= final;
  }

  const ethGetTransactionByHash = async (hash: TransactionHashParam): Promise<TransactionResult> => {
    const h = hash.toLowerCase();
    return lookup(`eth_getTransactionByHash:${h}`, 'eth_getTransactionByHash', [h], true);
  };

  const ethGetTransactionByBlockNumberAndIndex = async (
    block: BlockNumberOrTag,
    index: TransactionIndexParam,
  ): Promise<TransactionResult> => {
    // Only numeric blocks can be cached: a tag names a different block from one moment to the next.
    const numeric = block.startsWith('0x');
    return lookup(`eth_getTransactionByBlockNumberAndIndex:${block}:${index}`, 'eth_getTransactionByBlockNumberAndIndex', [block, index], numeric);
  };

  const ethChainId = async (): Promise<ChainId> => {
    if (chainId !== undefined) return chainId;
    const id = await flight('eth_chainId', () => client.request('eth_chainId'));
    if (typeof id !== 'string') throw new Error('upstream eth_chainId returned a non-string');
    chainId = id; // the chain id of a node never changes: cache forever once known
    return id;
  };

  return new Map<string, RpcHandler>([
    ['eth_getTransactionByHash', (p) => ethGetTransactionByHash(p[0] as TransactionHashParam)],
    ['eth_getTransactionByBlockNumberAndIndex', (p) => ethGetTransactionByBlockNumberAndIndex(p[0] as BlockNumberOrTag, p[1] as TransactionIndexParam)],
    ['eth_chainId', () => ethChainId()],
  ]);
}
