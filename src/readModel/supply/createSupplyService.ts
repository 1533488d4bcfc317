// The network token's supply figures as the API serves them: cached for a few seconds, one
// chain read shared by every concurrent request (single flight), and the last good figures
// served, labelled stale, while the node fails, up to a limit after which callers get 503.
import { getAddress } from 'ethers';
import type { Logger } from 'pino';
import type { ChainClient } from '../../chain/createChainClient.ts';
import { readSupply } from '../../chain/readSupply.ts';
import type { SupplyConfig } from '../../config/supplyConfig.ts';
import { UnavailableError } from '../../errors/index.ts';
import type { SupplyAnswer, SupplySnapshot } from './SupplySnapshot.ts';
import { toSupplySnapshot } from './toSupplySnapshot.ts';

export type SupplyServiceOptions = {
  chain: ChainClient;
  /** The network token, any case. */
  tokenAddress: string;
  config: SupplyConfig;
  /** How long a read is served without asking the node again. Default 5. */
  cacheSeconds?: number;
  /** How old the last good figures may get while the node fails. Default 300. */
  maxStaleSeconds?: number;
  /** A read slower than this counts as a node failure. Default 5000. */
  readTimeoutMs?: number;
  /** Multicall3 address; null reads call by call. Default: the canonical address. */
  multicall?: string | null;
  logger?: Logger;
  /** Epoch milliseconds; tests pin it. */
  now?: () => number;
};

export interface SupplyService {
  /** Checksummed network token address. */
  readonly tokenAddress: string;
  readonly cacheSeconds: number;
  /** Fresh or stale figures; throws UnavailableError when neither can be had. */
  get(): Promise<SupplyAnswer>;
  /** Chain reads started and failed since creation. */
  stats(): { reads: number; failures: number };
}

export function createSupplyService(options: SupplyServiceOptions): SupplyService {
  const tokenAddress = getAddress(options.tokenAddress.toLowerCase());
  const cacheSeconds = options.cacheSeconds ?? 5;
  const cacheMs = cacheSeconds * 1000;
  const maxStaleMs = (options.maxStaleSeconds ?? 300) * 1000;
  const readTimeoutMs = options.readTimeoutMs ?? 5000;
  // After a failure, wait this long before asking the node again, so an outage is not hammered.
  const retryMs = Math.max(1000, cacheMs);
  const now = options.now ?? Date.now;
  const { config } = options;
  const holders = [...config.burnAddresses, ...config.excludedWallets].map((h) => h.address);
  let last: SupplySnapshot | undefined;
  let lastFailureAt: number | undefined;
  let inflight: Promise<SupplySnapshot> | undefined;
  const counters = { reads: 0, failures: 0 };

  async function read(): Promise<SupplySnapshot> {
    counters.reads++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`supply read timed out after ${readTimeoutMs} ms`)), readTimeoutMs);
    });
    try {
      const reading = await Promise.race([
        readSupply(options.chain, { token: tokenAddress, sourceMethod: config.source.method, holders, blockTag: config.blockTag, multicall: options.multicall }),
        timeout,
      ]);
      const snapshot = toSupplySnapshot(tokenAddress, config, reading, now());
      last = snapshot;
      lastFailureAt = undefined;
      return snapshot;
    } catch (error) {
      counters.failures++;
      lastFailureAt = now();
      options.logger?.warn({ err: error, token: tokenAddress }, 'supply read failed');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  const answer = (snapshot: SupplySnapshot, stale: boolean): SupplyAnswer => ({
    snapshot,
    stale,
    ageSeconds: Math.max(0, Math.floor((now() - snapshot.readAt) / 1000)),
  });

  function fallback(): SupplyAnswer {
    if (last && now() - last.readAt <= maxStaleMs) return answer(last, true);
    const why = last ? `the last figures are older than ${maxStaleMs / 1000} s` : 'no figures have been read yet';
    throw new UnavailableError(`The supply cannot be read from the chain node and ${why}.`, Math.max(1, Math.ceil(retryMs / 1000)), { dependency: 'chain node' });
  }

  return {
    tokenAddress,
    cacheSeconds,
    async get() {
      const t = now();
      if (last && t - last.readAt < cacheMs) {
        // Refresh ahead in the last half of the cache time, so requests never queue behind the
        // node at expiry (that wait was the supply endpoints' p99 under load).
        if (!inflight && t - last.readAt >= cacheMs / 2 && (lastFailureAt === undefined || t - lastFailureAt >= retryMs)) {
          // A request that expires while this runs waits on it and, if it fails, falls back to
          // stale figures like any other failed read; nobody else waits on it, hence the catch.
          inflight = read().finally(() => (inflight = undefined));
          inflight.catch(() => {}); // logged and counted in read()
        }
        return answer(last, false);
      }
      if (!inflight && lastFailureAt !== undefined && t - lastFailureAt < retryMs) return fallback();
      inflight ??= read().finally(() => {
        inflight = undefined;
      });
      try {
        return answer(await inflight, false);
      } catch {
        return fallback();
      }
    },
    stats: () => ({ ...counters }),
  };
}
