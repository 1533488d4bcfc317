// USD price of a token: stablecoins are 1; the wrapped native token goes through a stablecoin pool;
// any other token through a pool against a priced quote (stablecoin or wrapped native). Of the pools
// whose liquidity (quote side × 2, in USD) reaches the minimum, the price source is the one with the
// greatest depth within ±2 % of spot (the quote it trades in that band, in USD), in every family.
import type { IndexerState } from './IndexerState.ts';
import { ONE, SCALE, pow10 } from './fixed.ts';
import { poolPrice, quoteBalance, quoteDepth } from './poolMath.ts';

export type PricingConfig = {
  stablecoins: ReadonlySet<string>;
  wrappedNative: string | null;
  /** Scaled by 10^36. */
  minLiquidityUsd: bigint;
};

/** Tokens with more decimals than any uint256 amount can express are never priced. */
export const MAX_PRICED_DECIMALS = 77;

export type PriceSource = {
  pool: string;
  quote: string;
  /** USD, scaled by 10^36. */
  liquidity: bigint;
  depth: bigint;
  quotePrice: bigint;
  quoteDecimals: number;
};

export function pickPriceSource(state: IndexerState, token: string, config: PricingConfig): PriceSource | null {
  const meta = state.tokens.get(token);
  if (!meta || !meta.decimalsKnown || meta.decimals > MAX_PRICED_DECIMALS) return null;
  let best: PriceSource | null = null;
  for (const address of state.poolsByToken.get(token) ?? []) {
    const pool = state.pools.get(address);
    if (!pool) continue;
    const quote = pool.token0 === token ? pool.token1 : pool.token0;
    const isStable = config.stablecoins.has(quote);
    if (!isStable && (quote !== config.wrappedNative || token === config.wrappedNative)) continue;
    const quotePrice = isStable ? ONE : (state.prices.get(quote)?.price ?? null);
    const quoteMeta = state.tokens.get(quote);
    if (quotePrice === null || !quoteMeta?.decimalsKnown || quoteMeta.decimals > MAX_PRICED_DECIMALS) continue;
    const balance = quoteBalance(pool, quote);
    const band = quoteDepth(pool, quote, quoteMeta.decimals, meta.decimals);
    if (balance === null || band === null) continue;
    const liquidity = (balance * quotePrice * 2n) / pow10(quoteMeta.decimals);
    if (liquidity < config.minLiquidityUsd || liquidity === 0n) continue;
    const depth = (band * quotePrice) / pow10(quoteMeta.decimals);
    // Ties go to the lower pool address, so the choice never depends on discovery order.
    if (!best || depth > best.depth || (depth === best.depth && address < best.pool)) {
      best = { pool: address, quote, liquidity, depth, quotePrice, quoteDecimals: quoteMeta.decimals };
    }
  }
  return best;
}

export function priceToken(state: IndexerState, token: string, config: PricingConfig): bigint | null {
  return priceWithSource(state, token, config).price;
}

/** The token's USD price (scaled by 10^36) and the pool it comes from (null for stablecoins and no price). */
export function priceWithSource(state: IndexerState, token: string, config: PricingConfig): { price: bigint | null; source: string | null } {
  if (config.stablecoins.has(token)) return { price: ONE, source: null };
  const source = pickPriceSource(state, token, config);
  if (!source) return { price: null, source: null };
  const inQuote = poolPrice(state.pools.get(source.pool)!, token, state.tokens.get(token)!.decimals, source.quoteDecimals);
  return inQuote === null ? { price: null, source: null } : { price: (inQuote * source.quotePrice) / SCALE, source: source.pool };
}
