// USD price of a token: stablecoins are 1; the wrapped native token goes through its deepest
// stablecoin pool; any other token through its deepest pool against a priced quote (stablecoin or
// wrapped native), and only when that pool's liquidity (quote side × 2, in USD) reaches the minimum.
import type { IndexerState } from './IndexerState.ts';
import { ONE, SCALE, pow10 } from './fixed.ts';
import { poolPrice, quoteDepth } from './poolMath.ts';

export type PricingConfig = {
  stablecoins: ReadonlySet<string>;
  wrappedNative: string | null;
  /** Scaled by 10^36. */
  minLiquidityUsd: bigint;
};

/** Tokens with more decimals than any uint256 amount can express are never priced. */
export const MAX_PRICED_DECIMALS = 77;

export function priceToken(state: IndexerState, token: string, config: PricingConfig): bigint | null {
  if (config.stablecoins.has(token)) return ONE;
  const meta = state.tokens.get(token);
  if (!meta || !meta.decimalsKnown || meta.decimals > MAX_PRICED_DECIMALS) return null;
  let best: { pool: string; liquidity: bigint; quote: string; quotePrice: bigint; quoteDecimals: number } | null = null;
  for (const address of state.poolsByToken.get(token) ?? []) {
    const pool = state.pools.get(address);
    if (!pool) continue;
    const quote = pool.token0 === token ? pool.token1 : pool.token0;
    const isStable = config.stablecoins.has(quote);
    if (!isStable && (quote !== config.wrappedNative || token === config.wrappedNative)) continue;
    const quotePrice = isStable ? ONE : (state.prices.get(quote)?.price ?? null);
    const quoteMeta = state.tokens.get(quote);
    if (quotePrice === null || !quoteMeta?.decimalsKnown || quoteMeta.decimals > MAX_PRICED_DECIMALS) continue;
    const depth = quoteDepth(pool, quote);
    if (depth === null) continue;
    const liquidity = (depth * quotePrice * 2n) / pow10(quoteMeta.decimals);
    // Ties go to the lower pool address, so the choice never depends on discovery order.
    if (!best || liquidity > best.liquidity || (liquidity === best.liquidity && address < best.pool)) {
      best = { pool: address, liquidity, quote, quotePrice, quoteDecimals: quoteMeta.decimals };
    }
  }
  if (!best || best.liquidity < config.minLiquidityUsd || best.liquidity === 0n) return null;
  const inQuote = poolPrice(state.pools.get(best.pool)!, token, meta.decimals, best.quoteDecimals);
  return inQuote === null ? null : (inQuote * best.quotePrice) / SCALE;
}
