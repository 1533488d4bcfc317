// What the demo network contains: tokens with reference USD prices and daily trends, and the pools
// between them. Prices/trends only steer the simulated traders; on-chain reserves are the truth.

export type TokenKind = 'stablecoin' | 'wrapped-native' | 'network' | 'standard' | 'spam' | 'dust-only';

export interface TokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** Total supply in whole tokens. */
  supply: bigint;
  kind: TokenKind;
  /** Reference price at the start of the history; 0 = no meaningful price (dust/spam only). */
  priceUsd: number;
  /** Drift of the reference price per 24 h, e.g. 0.3 = +30 %/day. */
  trendPerDay: number;
  /** Share of the supply the deployer sends to 0x…dEaD after seeding (not circulating). */
  burnedShare?: number;
  /**
   * A contract other than the plain DemoToken (docs/security-score.md, "Contract checks"):
   * `fiat-zeppelinos`/`fiat-eip1967` an upgradeable, pausable, blacklisting, mintable token behind a
   * proxy with those slots (as USDC and USDT); `upgradeable` a proxy with an active owner;
   * `mintable` an owner-only mint; `honeypot` sales revert; `tax` a 5 % fee on pool transfers.
   */
  contract?: 'fiat-zeppelinos' | 'fiat-eip1967' | 'upgradeable' | 'mintable' | 'honeypot' | 'tax';
}

/** The demo fee-on-transfer token's tax, in basis points. */
export const DEMO_TAX_BPS = 500n;

export type DemoProtocol = 'uniswap-v2' | 'uniswap-v3' | 'solidly' | 'syncswap' | 'pancake-v3' | 'algebra' | 'uniswap-v4';

export interface PoolSpec {
  protocol: DemoProtocol;
  /** Solidly and SyncSwap: the stable invariant instead of x·y = k. */
  stable?: boolean;
  /** A concentrated position one tick spacing wide at `priceFactor` × the reference price, holding about `usd` of the quote. */
  far?: { priceFactor: number; usd: number };
  /** Index into the deployed factories of that protocol. */
  factory: number;
  base: string;
  quote: string;
  /** USD value per side; for dust pools the absolute base/quote amounts below are used instead. */
  depthUsd: number;
  /** Concentrated pools' fee in hundredths of a bip (500 = 0.05 %); reserve pools' is set by their factory. */
  fee: number;
  /** primary pools carry the price trend; secondary ones follow by arbitrage; dust pools are never traded. */
  role: 'primary' | 'secondary' | 'dust';
  /** Dust pools only: whole-token amounts (may be fractional). */
  dustBase?: number;
  dustQuote?: number;
  /** Uniswap V4: the base is the native currency itself (address(0), priced as WETH). */
  native?: boolean;
  /** Uniswap V4: the pool's hooks keep part of every swap's input and set its fee (a dynamic-fee key). */
  hooked?: boolean;
}

export const ETH_PRICE_USD = 3000;

export const TOKENS: TokenSpec[] = [
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, supply: 0n, kind: 'wrapped-native', priceUsd: ETH_PRICE_USD, trendPerDay: 0.04 },
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, supply: 10_000_000_000n, kind: 'stablecoin', priceUsd: 1, trendPerDay: 0, contract: 'fiat-zeppelinos' },
  { symbol: 'USDT', name: 'Tether USD', decimals: 6, supply: 10_000_000_000n, kind: 'stablecoin', priceUsd: 1, trendPerDay: 0, contract: 'fiat-eip1967' },
  // Its pools are constant-product: the history's short depeg (market.ts) shows in its price.
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, supply: 5_000_000_000n, kind: 'stablecoin', priceUsd: 1, trendPerDay: 0 },
  { symbol: 'LINEA', name: 'Demo Linea', decimals: 18, supply: 72_009_990_000n, kind: 'network', priceUsd: 0.025, trendPerDay: 0.06 },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, supply: 21_000n, kind: 'standard', priceUsd: 65_000, trendPerDay: 0.02 },
  { symbol: 'AUG', name: 'Aurora Gold', decimals: 12, supply: 5_000_000n, kind: 'standard', priceUsd: 42.5, trendPerDay: -0.05 },
  { symbol: 'NEB', name: 'Nebula', decimals: 18, supply: 1_000_000_000n, kind: 'standard', priceUsd: 0.85, trendPerDay: 0.35 },
  { symbol: 'PCAT', name: 'Pixel Cat', decimals: 9, supply: 1_000_000_000_000n, kind: 'standard', priceUsd: 0.00012, trendPerDay: -0.3 },
  { symbol: 'QYLD', name: 'Quantum Yield', decimals: 18, supply: 100_000_000n, kind: 'standard', priceUsd: 3.2, trendPerDay: 0.12 },
  { symbol: 'HRB', name: 'Harbor DAO', decimals: 18, supply: 50_000_000n, kind: 'standard', priceUsd: 12, trendPerDay: -0.12 },
  { symbol: 'SPRK', name: 'Sparkle', decimals: 6, supply: 800_000_000n, kind: 'standard', priceUsd: 0.045, trendPerDay: 0.2 },
  { symbol: 'ORB', name: 'Orbit Protocol', decimals: 18, supply: 10_000_000n, kind: 'standard', priceUsd: 1.75, trendPerDay: -0.2 },
  { symbol: 'RELIC', name: 'Rare Relic', decimals: 0, supply: 500n, kind: 'standard', priceUsd: 1200, trendPerDay: 0.05 },
  { symbol: 'lsETH', name: 'Lumen Staked ETH', decimals: 18, supply: 200_000n, kind: 'standard', priceUsd: 3090, trendPerDay: 0.04 },
  // Listed and liquid, but 70 % of the supply is burned: its market cap stays under 50,000 USD.
  { symbol: 'EMBR', name: 'Ember', decimals: 18, supply: 10_000_000n, kind: 'standard', priceUsd: 0.01, trendPerDay: 0.05, burnedShare: 0.7 },
  // A dotted brand name (like "Stargate.Finance" or "ether.fi"): not a lure.
  { symbol: 'VELA', name: 'Vela.Finance', decimals: 18, supply: 100_000_000n, kind: 'standard', priceUsd: 0.4, trendPerDay: 0.08 },
  { symbol: 'MKRC', name: 'Maker Classic', decimals: 18, supply: 1_000_000n, kind: 'standard', priceUsd: 1500, trendPerDay: -0.03 },
  // Contract-check cases: unlisted tokens with real markets whose contracts tell on them.
  { symbol: 'HONEY', name: 'Honey Pot', decimals: 18, supply: 100_000_000n, kind: 'standard', priceUsd: 0.2, trendPerDay: 0.1, contract: 'honeypot' },
  { symbol: 'TAXY', name: 'Taxed Yield', decimals: 18, supply: 50_000_000n, kind: 'standard', priceUsd: 0.5, trendPerDay: 0.02, contract: 'tax' },
  { symbol: 'UPGD', name: 'Upgrade Labs', decimals: 18, supply: 20_000_000n, kind: 'standard', priceUsd: 2, trendPerDay: 0.03, contract: 'upgradeable' },
  { symbol: 'MNTR', name: 'Minter Coin', decimals: 18, supply: 80_000_000n, kind: 'standard', priceUsd: 0.3, trendPerDay: -0.02, contract: 'mintable' },
  { symbol: 'DUST', name: 'Dust Coin', decimals: 18, supply: 1_000_000_000n, kind: 'dust-only', priceUsd: 0, trendPerDay: 0 },
  { symbol: 'CLAIM', name: 'Visit claim-rewards.xyz', decimals: 18, supply: 1_000_000_000_000_000n, kind: 'spam', priceUsd: 0, trendPerDay: 0 },
];

const v2 = (base: string, quote: string, depthUsd: number, role: PoolSpec['role'] = 'primary', factory = 0): PoolSpec => ({
  protocol: 'uniswap-v2', factory, base, quote, depthUsd, fee: 3000, role,
});
const v3 = (base: string, quote: string, depthUsd: number, fee: number): PoolSpec => ({
  protocol: 'uniswap-v3', factory: 0, base, quote, depthUsd, fee, role: 'secondary',
});
// Pools of the other families: deeper than the token's Uniswap V2 primary, so they become price sources.
const family = (protocol: DemoProtocol, base: string, quote: string, depthUsd: number, extra: Partial<PoolSpec> = {}): PoolSpec => ({
  protocol, factory: 0, base, quote, depthUsd, fee: protocol === 'pancake-v3' ? 2500 : protocol === 'algebra' ? 500 : 3000, role: 'secondary', ...extra,
});
const dust = (base: string, quote: string, dustBase: number, dustQuote: number): PoolSpec => ({
  protocol: 'uniswap-v2', factory: 0, base, quote, depthUsd: 0, fee: 3000, role: 'dust', dustBase, dustQuote,
});

// MKRC is the Bytes32MetadataToken (hostile metadata, but a real market); it is deployed separately.
export const POOLS: PoolSpec[] = [
  v2('WETH', 'USDC', 6_000_000),
  v2('WETH', 'USDT', 2_000_000, 'secondary'),
  v2('USDT', 'USDC', 1_000_000, 'secondary'),
  v3('WETH', 'USDC', 4_000_000, 500),
  v2('DAI', 'USDC', 800_000, 'secondary'),
  v2('WETH', 'DAI', 400_000, 'secondary'),
  v2('WETH', 'USDC', 500_000, 'secondary', 1),
  v2('LINEA', 'WETH', 2_000_000),
  v2('LINEA', 'USDC', 500_000, 'secondary'),
  v3('LINEA', 'WETH', 800_000, 3000),
  v2('WBTC', 'WETH', 1_500_000),
  v3('WBTC', 'USDC', 600_000, 500),
  v2('AUG', 'WETH', 400_000),
  v2('NEB', 'WETH', 600_000),
  v2('NEB', 'USDC', 150_000, 'secondary'),
  v2('PCAT', 'WETH', 300_000),
  v2('QYLD', 'USDC', 350_000),
  v2('QYLD', 'WETH', 120_000, 'secondary'),
  v2('HRB', 'WETH', 450_000),
  v2('HRB', 'WETH', 150_000, 'secondary', 1),
  v2('SPRK', 'USDT', 200_000),
  v2('ORB', 'WETH', 250_000),
  v2('RELIC', 'USDC', 60_000),
  v2('lsETH', 'WETH', 900_000),
  v2('MKRC', 'WETH', 300_000),
  v2('EMBR', 'USDC', 15_000),
  v2('VELA', 'WETH', 600_000),
  v2('HONEY', 'WETH', 300_000),
  v2('TAXY', 'WETH', 250_000),
  v2('UPGD', 'USDC', 300_000),
  v2('MNTR', 'WETH', 250_000),
  family('solidly', 'lsETH', 'WETH', 1_500_000, { stable: true }),
  family('solidly', 'NEB', 'USDC', 700_000),
  family('syncswap', 'HRB', 'USDC', 600_000),
  family('syncswap', 'USDT', 'USDC', 2_000_000, { stable: true }),
  family('pancake-v3', 'SPRK', 'USDT', 400_000),
  family('algebra', 'PCAT', 'WETH', 500_000),
  // Uniswap V4 (one PoolManager): native ETH against USDC; ORB's deepest pool, so V4 prices it; and a
  // hooked VELA pool deeper than VELA's others that must never price it (its hook keeps part of each trade).
  family('uniswap-v4', 'WETH', 'USDC', 800_000, { native: true, fee: 500 }),
  family('uniswap-v4', 'ORB', 'USDC', 900_000),
  family('uniswap-v4', 'VELA', 'WETH', 2_000_000, { hooked: true }),
  // A tiny one-tick position at 100× AUG's price: huge virtual reserves, a few thousand USD held;
  // it must never become AUG's price source (never traded, like the dust pools).
  { protocol: 'uniswap-v3', factory: 0, base: 'AUG', quote: 'USDC', depthUsd: 0, fee: 3000, role: 'dust', far: { priceFactor: 100, usd: 1500 } },
  // Absurd price on pennies of liquidity: must never win price selection.
  dust('ORB', 'USDT', 0.001, 5),
  dust('DUST', 'WETH', 1_000_000, 0.0000001),
  dust('CLAIM', 'WETH', 1_000_000_000, 0.00001),
];

export function tokenSpec(symbol: string): TokenSpec {
  const spec = TOKENS.find((t) => t.symbol === symbol);
  if (!spec) throw new Error(`unknown demo token ${symbol}`);
  return spec;
}
