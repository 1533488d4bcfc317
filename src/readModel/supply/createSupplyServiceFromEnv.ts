// The start-up policy in one place, so main.ts makes one call: which token is served, which
// configuration file applies, and how the demo deployment fills in the roles.
import type { Logger } from 'pino';
import { createChainClient } from '../../chain/createChainClient.ts';
import type { Env } from '../../config/readEnv.ts';
import { resolveNetworkTokenSupply } from '../../config/networkTokenSupply.ts';
import { createSupplyService, type SupplyService } from './createSupplyService.ts';

export type SupplyFromEnvOptions = {
  env?: Env;
  /** The node's JSON-RPC URL (the demo chain's URL on the embedded network). */
  rpcUrl: string;
  /** On the embedded demo network: the deployment's network token (default token, and the roles of demo.json). */
  demoNetworkToken?: { address: string; treasury: string; ecosystem: string };
  logger?: Logger;
};

/**
 * The supply service as the environment asks for it, or undefined when no network token is
 * configured (real network without NETWORK_TOKEN_ADDRESS). Throws ConfigError naming every
 * bad variable or configuration entry.
 */
export function createSupplyServiceFromEnv(options: SupplyFromEnvOptions): SupplyService | undefined {
  const resolved = resolveNetworkTokenSupply(options.env ?? process.env, options.demoNetworkToken);
  if (!resolved) return undefined;
  const { tokenAddress, config, settings } = resolved;
  return createSupplyService({
    // Few retries: a failing node should turn into a stale answer quickly, not into a slow one.
    chain: createChainClient({ url: options.rpcUrl, maxRetries: 1, timeoutMs: 4000 }),
    tokenAddress,
    config,
    cacheSeconds: settings.cacheSeconds,
    maxStaleSeconds: settings.maxStaleSeconds,
    logger: options.logger,
  });
}
