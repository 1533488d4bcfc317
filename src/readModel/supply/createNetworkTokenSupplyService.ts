// The supply service of the network token the configuration resolved (config/networkTokenSupply.ts):
// none when no network token is configured.
import type { Logger } from 'pino';
import type { ChainClient } from '../../chain/index.ts';
import type { NetworkTokenSupply } from '../../config/networkTokenSupply.ts';
import { createSupplyService, type SupplyService } from './createSupplyService.ts';

export function createNetworkTokenSupplyService(
  networkToken: NetworkTokenSupply | undefined,
  deps: { chain: ChainClient; logger?: Logger },
): SupplyService | undefined {
  if (!networkToken) return undefined;
  const { tokenAddress, config, settings } = networkToken;
  return createSupplyService({
    chain: deps.chain,
    tokenAddress,
    config,
    cacheSeconds: settings.cacheSeconds,
    maxStaleSeconds: settings.maxStaleSeconds,
    logger: deps.logger,
  });
}
