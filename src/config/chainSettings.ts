// How this process talks to its node: the URL, each request's bounds, and the request budget
// every reader of the node shares (docs/indexer.md, "Talking to the node").
import type { EnvReader } from './readEnv.ts';

export type ChainSettings = {
  /** Upstream JSON-RPC node; undefined means the embedded demo chain. */
  url: string | undefined;
  /** Longest a request may take, its wait for the budget included. */
  timeoutMs: number;
  /** Retries of a failure that may pass when sent again (timeouts, 5xx, refusals for rate). */
  maxRetries: number;
  /** Requests per second the provider allows, each batch item counted; 0 = no limit. */
  requestsPerSecond: number;
  /** HTTP requests in flight at once; 0 = no limit. */
  maxConcurrency: number;
  /** Calls per JSON-RPC batch; 1 sends each call alone. */
  maxBatchSize: number;
};

/** A hosted provider's common free-tier rate: a node given by URL is assumed to be one until told otherwise. */
export const DEFAULT_PROVIDER_REQUESTS_PER_SECOND = 25;

/**
 * CHAIN_RPC_* settings. The INDEXER_RPC_* names of earlier versions are read where the new one is
 * unset. The embedded demo's node is in-process: no budget unless one is set.
 */
export function readChainSettings(read: EnvReader): ChainSettings {
  const url = read.url('CHAIN_RPC_URL', ['http:', 'https:']);
  const integer = (name: string, old: string | undefined, fallback: number, min: number, max: number) =>
    old !== undefined && read.string(name) === undefined && read.string(old) !== undefined ? read.integer(old, fallback, min, max) : read.integer(name, fallback, min, max);
  return {
    url,
    timeoutMs: integer('CHAIN_RPC_TIMEOUT_MS', 'INDEXER_RPC_TIMEOUT_MS', 10_000, 100, 300_000),
    maxRetries: integer('CHAIN_RPC_MAX_RETRIES', 'INDEXER_RPC_MAX_RETRIES', 5, 0, 100),
    requestsPerSecond: integer('CHAIN_RPC_REQUESTS_PER_SECOND', 'INDEXER_RPC_REQUESTS_PER_SECOND', url ? DEFAULT_PROVIDER_REQUESTS_PER_SECOND : 0, 0, 1_000_000),
    maxConcurrency: integer('CHAIN_RPC_MAX_CONCURRENCY', undefined, 16, 0, 10_000),
    maxBatchSize: integer('CHAIN_RPC_MAX_BATCH', undefined, 50, 1, 1000),
  };
}
