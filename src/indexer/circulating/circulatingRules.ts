// Whose balances are not circulating, per token, resolved once from the configuration: the burn
// addresses, the token contract itself and the token's excluded wallets; the network token
// follows its supply configuration instead (the rule of /supply/circulating).
import type { CirculatingConfig } from '../../config/circulatingConfig.ts';
import { DEFAULT_CIRCULATING_CONFIG } from '../../config/circulatingConfig.ts';
import type { SupplyConfig } from '../../config/supplyConfig.ts';

export type NetworkTokenRule = {
  /** Lower-case. */
  address: string;
  supply: SupplyConfig;
  /** Burn addresses, then excluded wallets, as the supply configuration lists them. */
  holders: string[];
};

export type CirculatingRules = {
  /** Lower-case; balances subtracted as burned, in this order first. */
  burnAddresses: string[];
  /** Every holder read for an ordinary token: the burn addresses, the token itself, its excluded wallets. */
  holdersOf(token: string): string[];
  networkToken: NetworkTokenRule | null;
};

export type CirculatingRulesInput = {
  config?: CirculatingConfig;
  /** The network token and its supply configuration (SUPPLY_CONFIG). */
  networkToken?: { address: string; supply: SupplyConfig };
};

export function circulatingRules(input: CirculatingRulesInput = {}): CirculatingRules {
  const config = input.config ?? DEFAULT_CIRCULATING_CONFIG;
  const burnAddresses = config.burnAddresses.map((b) => b.address.toLowerCase());
  const excluded = new Map(config.tokens.map((t) => [t.address.toLowerCase(), t.excludedWallets.map((w) => w.address.toLowerCase())]));
  const network = input.networkToken;
  return {
    burnAddresses,
    holdersOf: (token) => [...burnAddresses, token, ...(excluded.get(token) ?? [])],
    networkToken: network
      ? {
          address: network.address.toLowerCase(),
          supply: network.supply,
          holders: [...network.supply.burnAddresses, ...network.supply.excludedWallets].map((h) => h.address.toLowerCase()),
        }
      : null,
  };
}
