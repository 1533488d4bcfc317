// The one node client: JSON-RPC over the one transport, every request through the process's
// request budget, retries with exponential backoff and jitter where the failure is retryable
// (classifyNodeFailure.ts decides), JSON-RPC batches, and eth_getLogs ranges that shrink when the
// node refuses them and grow back after successes. The indexer, the contract checks, the supply
// reads, readiness and POST /rpc all talk to the node through it.
import { classifyHttpStatus, classifyNodeError } from './classifyNodeFailure.ts';
import { unlimitedBudget, type Release, type RequestBudget, type RequestPriority } from './createRequestBudget.ts';
import { ChainError, InvalidResponseError, LogRangeTooLargeError, RateLimitedError, RpcTimeoutError, type NodeErrorObject } from './errors.ts';
import { createHttpTransport } from './transport/createHttpTransport.ts';
import type { BlockHeader, BlockTag, LogFilter, RawLog } from './types.ts';

export type ChainClientOptions = {
  url: string;
  /** Longest a request may take (for `interactive` requests, their wait for the budget included). Default 10000 ms. */
  timeoutMs?: number;
  /** Retries of a retryable failure; a refusal for rate is waited out at least 10 times. Default 5. */
  maxRetries?: number;
  /** Base delay of the exponential backoff. Default 200 ms. */
  retryBaseMs?: number;
  /**
   * Longest delay between two retries. Default 10000 ms. The indexer's client waits at most a
   * second: a node answering again is used within that, not after a long backoff.
   */
  retryMaxDelayMs?: number;
  /** False: a new connection per request (readiness probes). Default true (a keep-alive pool). */
  reuseConnections?: boolean;
  /** The process's request budget (default: one of its own without limits). */
  budget?: RequestBudget;
  /** `interactive` requests (a user waiting) are granted before `background` ones, those before `idle` ones. Default background. */
  priority?: RequestPriority;
  /** Calls per JSON-RPC batch (the budget may lower it); 1 sends each call alone. Default 50. */
  maxBatchSize?: number;
  /** Called once per HTTP exchange: the method (`batch` for a batch), whether it succeeded, its seconds. */
  observe?: (method: string, ok: boolean, seconds: number) => void;
  /** Called once per HTTP exchange with its error, or undefined when the node answered (the indexer's outage log). */
  onExchange?: (error: unknown) => void;
};

export type RpcCall = { method: string; params: readonly unknown[] };

export type ChainClientStats = {
  /** Requests as a provider counts them: each batch item is one. */
  requests: number;
  byMethod: Record<string, number>;
  /** JSON-RPC batches sent. */
  batches: number;
  retries: number;
  failures: number;
  /** Refusals for rate (429 or a rate-limit error). */
  throttled: number;
  logSplits: number;
  /** The eth_getLogs block range in force; null while unlimited. */
  logRange: number | null;
};

export interface ChainClient {
  /** scheme://host:port of the node: what a log line or an answer may show. */
  readonly endpoint: string;
  /** The node's `result` untouched; rejects with a ChainError. `retries` overrides maxRetries (POST /rpc sends 0). */
  request<T>(method: string, params?: readonly unknown[], options?: { retries?: number }): Promise<T>;
  /** Each call's result or ChainError, in order, sent as JSON-RPC batches (each item counts against the budget). */
  batch<T>(calls: readonly RpcCall[]): Promise<(T | ChainError)[]>;
  getChainId(): Promise<number>;
  getBlockNumber(): Promise<number>;
  /** Null when the node has no such block (yet). */
  getBlockHeader(blockNumber: number): Promise<BlockHeader | null>;
  /** Headers of many blocks in batches, in the order asked; null where the node has no such block. */
  getBlockHeaders(blockNumbers: readonly number[]): Promise<(BlockHeader | null)[]>;
  getLogs(filter: LogFilter): Promise<RawLog[]>;
  /** eth_call; throws CallRevertedError when the contract reverts. */
  call(to: string, data: string, blockTag: BlockTag): Promise<string>;
  stats(): ChainClientStats;
  destroy(): void;
}

type RpcBlock = { number: string; hash: string; parentHash: string; timestamp: string };
type RpcLog = Omit<RawLog, 'blockNumber' | 'logIndex' | 'blockTimestamp'> & { blockNumber: string; logIndex: string; blockTimestamp?: string };
type Envelope = { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };

/** A refusal for rate is waited out at least this many times: the budget has paused every sender. */
const MIN_RATE_RETRIES = 10;
/** Successes at the eth_getLogs range in force before it doubles. */
const GROW_AFTER = 3;
/** Batches of one client in flight at once (the budget's concurrency still applies). */
const BATCH_CONCURRENCY = 4;

const hex = (n: number) => `0x${n.toString(16)}`;

export function createChainClient(options: ChainClientOptions): ChainClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRetries = options.maxRetries ?? 5;
  const retryBaseMs = options.retryBaseMs ?? 200;
  const retryMaxDelayMs = options.retryMaxDelayMs ?? 10_000;
  const budget = options.budget ?? unlimitedBudget();
  const priority = options.priority ?? 'background';
  const maxBatchSize = Math.max(1, options.maxBatchSize ?? 50);
  const transport = createHttpTransport(options.url, { reuseConnections: options.reuseConnections });
  const counters = { requests: 0, batches: 0, retries: 0, failures: 0, throttled: 0, logSplits: 0 };
  const byMethod: Record<string, number> = {};
  const logRange = { limit: Number.POSITIVE_INFINITY, streak: 0 };
  let nextId = 1;
  let batchesRefused = false;

  /**
   * One HTTP exchange of `items` calls within the budget and the timeout: the body is built once
   * the budget grants it, and `read` turns the answer into results. A refusal for rate, of the
   * whole exchange or of any call in it, is reported to the budget, which pauses every sender.
   */
  async function exchange<R>(
    method: string,
    params: readonly unknown[],
    items: number,
    body: (firstId: number) => string,
    read: (text: string, firstId: number, throttled: (error: RateLimitedError) => void) => R,
  ): Promise<R> {
    // A user waiting (interactive) gets an answer within the timeout, its wait for the budget
    // included; background work waits for the budget as long as it takes, then has the timeout.
    const waitUntil = priority === 'interactive' ? performance.now() + timeoutMs : undefined;
    const release = await budget.acquire(items, { priority, deadline: waitUntil });
    if (!release) throw new RpcTimeoutError(method, timeoutMs);
    const deadline = waitUntil ?? performance.now() + timeoutMs;
    const firstId = nextId;
    nextId += items;
    const started = performance.now();
    let refusal: RateLimitedError | undefined;
    const throttled = (error: RateLimitedError) => {
      counters.throttled++;
      refusal ??= error;
    };
    let ok = false;
    let failure: unknown;
    try {
      const answer = await transport.post(body(firstId), method, Math.max(1, deadline - performance.now())).catch((error: unknown) => {
        // The timer ran on what was left of the request's time; the error names the whole.
        throw error instanceof RpcTimeoutError ? new RpcTimeoutError(method, timeoutMs, { cause: error }) : error;
      });
      if (answer.status < 200 || answer.status > 299) {
        const error = classifyHttpStatus(method, params, answer.status, answer.text, answer.retryAfterMs);
        if (error instanceof RateLimitedError) throttled(error);
        throw error;
      }
      const result = read(answer.text, firstId, throttled);
      ok = true;
      return result;
    } catch (error) {
      if (error instanceof RateLimitedError && refusal === undefined) throttled(error);
      failure = error;
      throw error;
    } finally {
      release(refusal ? { throttled: true, retryAfterMs: refusal.retryAfterMs } : undefined);
      options.observe?.(method, ok, (performance.now() - started) / 1000);
      options.onExchange?.(failure);
    }
  }

  function count(method: string, n = 1) {
    counters.requests += n;
    byMethod[method] = (byMethod[method] ?? 0) + n;
  }

  function once(method: string, params: readonly unknown[]): Promise<unknown> {
    count(method);
    return exchange(method, params, 1, (id) => JSON.stringify({ jsonrpc: '2.0', id, method, params }), (text, id) => {
      const envelope = parseEnvelope(method, text);
      if (Array.isArray(envelope)) throw new InvalidResponseError(method, 'a JSON array answered a single request');
      return resultOf(method, params, id, envelope);
    });
  }

  async function request<T>(method: string, params: readonly unknown[] = [], retries = maxRetries): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await once(method, params)) as T;
      } catch (error) {
        const limit = error instanceof RateLimitedError ? Math.max(retries, MIN_RATE_RETRIES) : retries;
        if (!(error instanceof ChainError) || !error.retryable || attempt >= limit) {
          counters.failures++;
          throw error;
        }
        counters.retries++;
        // A refusal for rate has paused the budget for every sender; other failures back off here.
        if (!(error instanceof RateLimitedError)) await sleep(Math.min(retryMaxDelayMs, retryBaseMs * 2 ** attempt * (0.5 + Math.random())));
      }
    }
  }

  /** One JSON-RPC batch; each call's result or error. A node that refuses batches gets single calls from then on. */
  async function batchOnce(calls: readonly RpcCall[]): Promise<(unknown | ChainError)[]> {
    counters.batches++;
    for (const c of calls) count(c.method);
    const body = (id: number) => JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: id + i, method: c.method, params: c.params })));
    const answers = await exchange('batch', [], calls.length, body, (text, firstId, throttled) => {
      const envelope = parseEnvelope('batch', text);
      if (!Array.isArray(envelope)) {
        // One error for the whole batch: a refusal for rate is retried, anything else means no batches.
        if (envelope.error) {
          const error = asChainError('batch', catching(() => resultOf('batch', [], 0, envelope)));
          if (error instanceof RateLimitedError) throw error;
        }
        return null;
      }
      const byId = new Map<unknown, Envelope>();
      for (const item of envelope) if (item && typeof item === 'object') byId.set((item as Envelope).id, item as Envelope);
      return calls.map((c, i) => {
        const item = byId.get(firstId + i);
        if (!item) return new InvalidResponseError(c.method, `no answer to batch item ${firstId + i}`);
        const result = catching(() => resultOf(c.method, c.params, firstId + i, item));
        if (result instanceof RateLimitedError) throttled(result);
        return result instanceof Error ? asChainError(c.method, result) : result;
      });
    });
    if (answers !== null) return answers;
    batchesRefused = true;
    return Promise.all(calls.map((c) => request(c.method, c.params).catch((error: unknown) => asChainError(c.method, error))));
  }

  async function batch<T>(calls: readonly RpcCall[]): Promise<(T | ChainError)[]> {
    const size = Math.max(1, Math.min(maxBatchSize, budget.maxItems(priority)));
    if (batchesRefused || size === 1 || calls.length === 1) {
      return Promise.all(calls.map((c) => request<T>(c.method, c.params).catch((error: unknown) => asChainError(c.method, error))));
    }
    const results: (T | ChainError)[] = new Array(calls.length);
    const chunks: number[] = [];
    for (let i = 0; i < calls.length; i += size) chunks.push(i);
    const worker = async () => {
      for (let start = chunks.shift(); start !== undefined; start = chunks.shift()) {
        const slice = calls.slice(start, start + size);
        let pending = slice.map((_, i) => start + i);
        for (let attempt = 0; pending.length > 0; attempt++) {
          const answers = await batchOnce(pending.map((i) => calls[i]!)).catch((error: unknown) => pending.map(() => asChainError('batch', error)));
          const again: number[] = [];
          answers.forEach((answer, k) => {
            const index = pending[k]!;
            const limit = answer instanceof RateLimitedError ? MIN_RATE_RETRIES : maxRetries;
            if (answer instanceof ChainError && answer.retryable && attempt < limit) again.push(index);
            else results[index] = answer as T | ChainError;
          });
          if (again.length > 0) {
            counters.retries += again.length;
            if (!answers.some((a) => a instanceof RateLimitedError)) await sleep(Math.min(retryMaxDelayMs, retryBaseMs * 2 ** attempt * (0.5 + Math.random())));
          }
          pending = again;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, chunks.length) }, worker));
    for (const r of results) if (r instanceof ChainError) counters.failures++;
    return results;
  }

  /** Logs of [from, to] in ranges the node accepts, in block order. */
  async function getLogs(filter: LogFilter): Promise<RawLog[]> {
    const out: RawLog[] = [];
    let from = filter.fromBlock;
    while (from <= filter.toBlock) {
      const to = Math.min(filter.toBlock, from + logRange.limit - 1);
      try {
        const logs = await request<RpcLog[]>('eth_getLogs', [{ address: filter.address, topics: filter.topics, fromBlock: hex(from), toBlock: hex(to) }]);
        for (const log of logs) out.push(toRawLog(log));
        grewOrKept(to - from + 1);
        from = to + 1;
      } catch (error) {
        if (!(error instanceof LogRangeTooLargeError) || from === to) throw error;
        counters.logSplits++;
        const span = to - from + 1;
        const suggested = error.suggestedToBlock !== null && error.suggestedToBlock >= from && error.suggestedToBlock < to ? error.suggestedToBlock - from + 1 : null;
        logRange.limit = Math.max(1, suggested ?? Math.floor(span / 2));
        logRange.streak = 0;
      }
    }
    return out;
  }

  // Only a success at the full range in force shows that a larger one may pass.
  function grewOrKept(span: number) {
    if (logRange.limit === Number.POSITIVE_INFINITY || span < logRange.limit) return;
    if (++logRange.streak < GROW_AFTER) return;
    logRange.streak = 0;
    logRange.limit = logRange.limit >= 1 << 24 ? Number.POSITIVE_INFINITY : logRange.limit * 2;
  }

  return {
    endpoint: transport.endpoint,
    request: (method, params = [], requestOptions) => request(method, params, requestOptions?.retries ?? maxRetries),
    batch,
    async getChainId() {
      return Number(await request<string>('eth_chainId'));
    },
    async getBlockNumber() {
      return Number(await request<string>('eth_blockNumber'));
    },
    async getBlockHeader(blockNumber) {
      return toHeader(await request<RpcBlock | null>('eth_getBlockByNumber', [hex(blockNumber), false]));
    },
    async getBlockHeaders(blockNumbers) {
      const answers = await batch<RpcBlock | null>(blockNumbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [hex(n), false] })));
      return answers.map((a) => {
        if (a instanceof ChainError) throw a;
        return toHeader(a);
      });
    },
    getLogs,
    call(to, data, blockTag) {
      return request<string>('eth_call', [{ to, data }, blockTag === 'latest' ? 'latest' : hex(blockTag)]);
    },
    stats: () => ({ ...counters, byMethod: { ...byMethod }, logRange: logRange.limit === Number.POSITIVE_INFINITY ? null : logRange.limit }),
    destroy: () => transport.close(),
  };
}

function parseEnvelope(method: string, text: string): Envelope | Envelope[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new InvalidResponseError(method, 'body is not JSON', { cause: error });
  }
  if (Array.isArray(body)) return body as Envelope[];
  if (typeof body !== 'object' || body === null) throw new InvalidResponseError(method, 'body is not a JSON object');
  return body as Envelope;
}

/** The result of one JSON-RPC answer, or the error it carries, classified. */
function resultOf(method: string, params: readonly unknown[], id: number, msg: Envelope): unknown {
  if (msg.jsonrpc !== '2.0') throw new InvalidResponseError(method, 'jsonrpc is not "2.0"');
  if ('error' in msg && msg.error !== undefined && msg.error !== null) {
    const e = msg.error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof e !== 'object' || !Number.isInteger(e.code) || typeof e.message !== 'string') throw new InvalidResponseError(method, 'malformed error object');
    const nodeError: NodeErrorObject = e.data === undefined ? { code: e.code as number, message: e.message } : { code: e.code as number, message: e.message, data: e.data };
    throw classifyNodeError(method, params, nodeError);
  }
  if (msg.id !== id) throw new InvalidResponseError(method, `id ${JSON.stringify(msg.id)} does not match request id ${id}`);
  if (!('result' in msg)) throw new InvalidResponseError(method, 'neither result nor error');
  return msg.result;
}

/** What `run` returns, or what it throws. */
function catching(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function asChainError(method: string, error: unknown): ChainError {
  return error instanceof ChainError ? error : new InvalidResponseError(method, 'unexpected failure', { cause: error });
}

function toHeader(block: RpcBlock | null): BlockHeader | null {
  if (!block) return null;
  return { number: Number(block.number), hash: block.hash.toLowerCase(), parentHash: block.parentHash.toLowerCase(), timestamp: Number(block.timestamp) };
}

function toRawLog(log: RpcLog): RawLog {
  const raw: RawLog = {
    address: log.address.toLowerCase(),
    topics: log.topics.map((t) => t.toLowerCase()),
    data: log.data,
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash.toLowerCase(),
    transactionHash: log.transactionHash.toLowerCase(),
    logIndex: Number(log.logIndex),
    removed: log.removed,
  };
  if (log.blockTimestamp !== undefined) raw.blockTimestamp = Number(log.blockTimestamp);
  return raw;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
