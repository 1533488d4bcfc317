// Which network token is served and which supply configuration applies to it, decided once for
// both readers of that rule: the /supply endpoints and the indexer's circulating supply.
import { ConfigError } from '../errors/index.ts';
import { DEMO_SUPPLY_CONFIG_PATH, loadSupplyConfig, type SupplyConfig, type SupplyRoles, type SupplySettings } from './supplyConfig.ts';

export type NetworkTokenSupply = { tokenAddress: string; config: SupplyConfig; settings: SupplySettings };

/** The embedded demo's network token and the wallets demo.json names by role. */
export type DemoNetworkToken = { address: string; treasury: string; ecosystem: string };

/**
 * NETWORK_TOKEN_ADDRESS (else the demo network token) with SUPPLY_CONFIG (else the demo file on
 * the demo network), from the settings read at start-up; undefined when no network token is configured. Throws ConfigError naming
 * every bad variable or configuration entry.
 */
export function resolveNetworkTokenSupply(settings: SupplySettings, demo?: DemoNetworkToken): NetworkTokenSupply | undefined {  const tokenAddress = settings.tokenAddress ?? demo?.address;
  if (!tokenAddress) return undefined;
  const configPath = settings.configPath ?? (demo ? DEMO_SUPPLY_CONFIG_PATH : undefined);
  // Without a file the excluded wallets are unknown and the circulating supply would be silently wrong.
  if (!configPath) throw new ConfigError(['SUPPLY_CONFIG: required when NETWORK_TOKEN_ADDRESS is set (start from config/supply/linea.example.json)']);
  const roles: SupplyRoles = demo ? { treasury: demo.treasury, ecosystem: demo.ecosystem } : {};
  return { tokenAddress, config: loadSupplyConfig(configPath, roles), settings };
}
