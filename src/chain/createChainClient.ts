// The indexer's node access over ethers v6 JsonRpcProvider: per-request timeout, retries with
// exponential backoff and jitter on transient failures, a requests-per-second cap, and getLogs
// that splits ranges the node refuses.
import { Network, toQuantity, type JsonRpcProvider } from 'ethers';
import { createFastJsonRpcProvider } from './createFastJsonRpcProvider.ts';
import { classifyRpcError } from './classifyRpcError.ts';
import { createNodeCallLimiter } from './createNodeCallLimiter.ts';
import { CallRevertedError, ChainRequestError, LogRangeError } from './errors.ts';
import type { BlockHeader, BlockTag, LogFilter, RawLog } from './types.ts';

export type ChainClientOptions = {
  url: string;
  /** Skips network detection; any value works for reads. Default 0 ("unknown"). */
  chainId?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** 0 = unlimited. */
  requestsPerSecond?: number;
  /** Base delay of the exponential backoff. */
  retryBaseMs?: number;
};

export type ChainClientStats = { requests: number; retries: number; failures: number; logSplits: number };

export interface ChainClient {
  readonly url: string;
  readonly provider: JsonRpcProvider;
  request<T>(method: string, params: unknown[]): Promise<T>;
  getChainId(): Promise<number>;
  getBlockNumber(): Promise<number>;
  /** Null when the node has no such block (yet). */
  getBlockHeader(blockNumber: number): Promise<BlockHeader | null>;
  getLogs(filter: LogFilter): Promise<RawLog[]>;
  /** eth_call; throws CallRevertedError when the contract reverts. */
  call(to: string, data: string, blockTag: BlockTag): Promise<string>;
  stats(): ChainClientStats;
  destroy(): void;
}

type RpcBlock = { number: string; hash: string; parentHash: string; timestamp: string };
type RpcLog = Omit<RawLog, 'blockNumber' | 'logIndex'> & { blockNumber: string; logIndex: string };

export function createChainClient(options: ChainClientOptions): ChainClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRetries = options.maxRetries ?? 5;
  const retryBaseMs = options.retryBaseMs ?? 200;
  const limiter = createNodeCallLimiter(options.requestsPerSecond ?? 0);
  // One request at a time over Node's fetch (createFastJsonRpcProvider); retries are ours alone.
  const network = new Network('chain', BigInt(options.chainId ?? 0));
  const provider = createFastJsonRpcProvider(options.url, timeoutMs, network, { staticNetwork: network, batchMaxCount: 1, polling: false });
  const counters: ChainClientStats = { requests: 0, retries: 0, failures: 0, logSplits: 0 };
  // Learned from refusals: later getLogs calls start at a range the node accepted.
  let logRangeHint = Number.POSITIVE_INFINITY;

  async function request<T>(method: string, params: unknown[], fatal?: (kind: string) => boolean): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await limiter.take();
      counters.requests++;
      try {
        return (await provider.send(method, params)) as T;
      } catch (error) {
        const kind = classifyRpcError(error, method);
        if (fatal?.(kind)) throw error;
        if (kind === 'revert') throw new CallRevertedError(String((params[0] as { to?: string })?.to ?? ''), { cause: error });
        if (kind !== 'transient' || attempt >= maxRetries) {
          counters.failures++;
          throw new ChainRequestError(method, kind === 'transient', { cause: error });
        }
        counters.retries++;
        const delay = Math.min(10_000, retryBaseMs * 2 ** attempt) * (0.5 + Math.random());
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  async function logsInRange(filter: LogFilter, from: number, to: number): Promise<RawLog[]> {
    if (to - from + 1 > logRangeHint) {
      const mid = from + logRangeHint - 1;
      return [...(await logsInRange(filter, from, mid)), ...(await logsInRange(filter, mid + 1, to))];
    }
    try {
      const params = { address: filter.address, topics: filter.topics, fromBlock: toQuantity(from), toBlock: toQuantity(to) };
      const logs = await request<RpcLog[]>('eth_getLogs', [params], (kind) => kind === 'range');
      return logs.map(toRawLog);
    } catch (error) {
      if (classifyRpcError(error, 'eth_getLogs') !== 'range') throw error;
      if (from === to) throw new LogRangeError(from, to, { cause: error });
      counters.logSplits++;
      const mid = Math.floor((from + to) / 2);
      logRangeHint = Math.max(1, mid - from + 1);
      return [...(await logsInRange(filter, from, mid)), ...(await logsInRange(filter, mid + 1, to))];
    }
  }

  return {
    url: options.url,
    provider,
    request: (method, params) => request(method, params),
    async getChainId() {
      return Number(await request<string>('eth_chainId', []));
    },
    async getBlockNumber() {
      return Number(await request<string>('eth_blockNumber', []));
    },
    async getBlockHeader(blockNumber) {
      const block = await request<RpcBlock | null>('eth_getBlockByNumber', [toQuantity(blockNumber), false]);
      if (!block) return null;
      return {
        number: Number(block.number),
        hash: block.hash.toLowerCase(),
        parentHash: block.parentHash.toLowerCase(),
        timestamp: Number(block.timestamp),
      };
    },
    getLogs: (filter) => logsInRange(filter, filter.fromBlock, filter.toBlock),
    call(to, data, blockTag) {
      const tag = blockTag === 'latest' ? 'latest' : toQuantity(blockTag);
      return request<string>('eth_call', [{ to, data }, tag]);
    },
    stats: () => ({ ...counters }),
    destroy: () => provider.destroy(),
  };
}

function toRawLog(log: RpcLog): RawLog {
  return {
    address: log.address.toLowerCase(),
    topics: log.topics.map((t) => t.toLowerCase()),
    data: log.data,
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash.toLowerCase(),
    transactionHash: log.transactionHash.toLowerCase(),
    logIndex: Number(log.logIndex),
    removed: log.removed,
  };
}
