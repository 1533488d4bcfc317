// The embedded demo's circulating-supply rules: config/circulating/demo.json names tokens by
// symbol and wallets by account role, resolved here from the deployment; the network token
// follows config/supply/demo.json, as /supply/circulating does on the demo network.
import { fileURLToPath } from 'node:url';
import { loadCirculatingConfig } from '../config/circulatingConfig.ts';
import { DEMO_SUPPLY_CONFIG_PATH, loadSupplyConfig, type SupplyRoles } from '../config/supplyConfig.ts';
import type { CirculatingRulesInput } from '../indexer/circulating/circulatingRules.ts';
import type { DemoDeployment } from './deploy.ts';

export const DEMO_CIRCULATING_CONFIG_PATH = fileURLToPath(new URL('../../config/circulating/demo.json', import.meta.url));

/** Token symbols and the accounts treasury, ecosystem and deployer. */
export function demoRoles(deployment: DemoDeployment): SupplyRoles {
  const { treasury, ecosystem, deployer } = deployment.accounts;
  return { ...Object.fromEntries(deployment.tokens.map((t) => [t.symbol, t.address])), treasury, ecosystem, deployer };
}

/** The rules `npm start` applies on the demo network when no SUPPLY_CONFIG or INDEXER_CIRCULATING_CONFIG is set. */
export function circulatingFromDemo(deployment: DemoDeployment): CirculatingRulesInput {
  const roles = demoRoles(deployment);
  const network = deployment.networkToken;
  return {
    config: loadCirculatingConfig(DEMO_CIRCULATING_CONFIG_PATH, { roles, networkToken: network.address }),
    networkToken: { address: network.address, supply: loadSupplyConfig(DEMO_SUPPLY_CONFIG_PATH, roles) },
  };
}
