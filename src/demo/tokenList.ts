// The demo's token list (Uniswap Token Lists format): the blue chips — stablecoins, WETH, the network
// token and a few majors — plus two hostile tokens so the API shows them with list metadata.
// Deliberately NOT every token and never the spam token: other tokens are secure only by their fdv.
import type { DemoDeployment } from './deploy.ts';
import { DEMO_LOGO_PATH } from './logoRouter.ts';
import { LOGO_SYMBOL } from './logos.ts';
import { parseTokenList, type TokenListEntry } from '../indexer/loadTokenList.ts';

export type DemoTokenListOptions = {
  /** Origin the API is reachable at, e.g. http://localhost:3000; logos are omitted when absent. */
  logoBaseUrl?: string;
};

export type TokenListDocument = {
  name: string;
  timestamp: string;
  version: { major: number; minor: number; patch: number };
  keywords?: string[];
  tokens: { chainId: number; address: string; name: string; symbol: string; decimals: number; logoURI?: string }[];
};

/** Majors listed besides the stablecoins, WETH and the network token. */
export const DEMO_LISTED_MAJORS = ['WBTC', 'lsETH', 'EMBR', 'VELA'] as const;

/** The demo list as a Token Lists document (what a file or URL would hold). */
export function demoTokenListDocument(deployment: DemoDeployment, options: DemoTokenListOptions = {}): TokenListDocument {
  const base = options.logoBaseUrl?.replace(/\/+$/, '');
  const blueChips = deployment.tokens.filter(
    (t) => t.kind === 'stablecoin' || t.kind === 'wrapped-native' || t.kind === 'network' || (DEMO_LISTED_MAJORS as readonly string[]).includes(t.symbol),
  );
  const entries = [
    ...blueChips.map((t) => ({ address: t.address, name: t.name, symbol: t.symbol, decimals: t.decimals })),
    // name() reverts: the list supplies it. decimals() is missing: the list supplies 18.
    { address: deployment.hostileTokens.revertingName, name: 'Nameless Token', symbol: 'NONAME', decimals: 18 },
    { address: deployment.hostileTokens.noDecimals, name: 'No Decimals', symbol: 'NODEC', decimals: 18 },
  ].filter((t) => t.address.toLowerCase() !== deployment.spamToken.toLowerCase());
  return {
    name: 'Token API Demo',
    timestamp: '2025-01-01T00:00:00.000Z',
    version: { major: 1, minor: 0, patch: 0 },
    keywords: ['demo'],
    tokens: entries.map((t) => ({
      chainId: deployment.chainId,
      ...t,
      ...(base && LOGO_SYMBOL.test(t.symbol) ? { logoURI: `${base}${DEMO_LOGO_PATH}/${t.symbol}.svg` } : {}),
    })),
  };
}

/** The demo list's entries, through the same validation as a list file, for `createIndexer({ tokenList })`. */
export function demoTokenList(deployment: DemoDeployment, options: DemoTokenListOptions = {}): TokenListEntry[] {
  return parseTokenList(demoTokenListDocument(deployment, options), deployment.chainId, 'demo');
}
