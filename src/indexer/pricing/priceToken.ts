// USD price of a token. One token is the anchor: the wrapped native token priced by a
// Chainlink-style USD feed, or without a feed a stablecoin taken as 1 USD. Every other token,
// stablecoins included, is priced through a pool against a quote token: the quote tokens are the
// anchor, then the wrapped native token and the stablecoins in their configured order, and a quote
// token may only be priced against quote tokens before it (so no price depends on itself). Of the
// allowed pools whose liquidity (quote side × 2, in USD) reaches the minimum, the price source is
// the one with the greatest depth within ±2 % of spot (the quote it trades in that band, in USD).
import type { IndexerState } from '../state/IndexerState.ts';
import { ONE, SCALE, pow10 } from '../math/fixed.ts';
import { familyOf } from '../families/index.ts';
import { poolPrice, quoteBalance, quoteDepth } from './poolQuotes.ts';

export type UsdAnchor =
  | { kind: 'usd-feed'; token: string; feed: string }
  | { kind: 'usd-peg'; token: string };

export type PricingConfig = {
  /** Null: nothing can be priced (no feed and no stablecoin configured). */
  anchor: UsdAnchor | null;
  /** Quote tokens in priority order (lower case); the anchor's token first. */
  quotes: readonly string[];
  /** Position of each quote token in `quotes`. */
  quoteRank: ReadonlyMap<string, number>;
  /** Scaled by 10^36. */
  minLiquidityUsd: bigint;
};

/** What prices a token: a pool, the USD feed, or the USD peg. */
export type PriceSourceKind = 'pool' | 'usd-feed' | 'usd-peg';

export function createPricingConfig(options: {
  stablecoins: readonly string[];
  wrappedNative: string | null;
  usdFeed: string | null;
  usdPeg: string | null;
  minLiquidityUsd: bigint;
}): PricingConfig {
  const stablecoins = options.stablecoins.map((a) => a.toLowerCase());
  const weth = options.wrappedNative?.toLowerCase() ?? null;
  let anchor: UsdAnchor | null = null;
  if (options.usdFeed && weth) anchor = { kind: 'usd-feed', token: weth, feed: options.usdFeed.toLowerCase() };
  else {
    const peg = options.usdPeg?.toLowerCase() ?? stablecoins[0] ?? null;
    if (peg) anchor = { kind: 'usd-peg', token: peg };
  }
  const quotes = anchor ? [...new Set([anchor.token, ...(weth ? [weth] : []), ...stablecoins])] : [];
  return { anchor, quotes, quoteRank: new Map(quotes.map((q, i) => [q, i])), minLiquidityUsd: options.minLiquidityUsd };
}

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
  const rank = config.quoteRank.get(token) ?? Number.POSITIVE_INFINITY;
  let best: PriceSource | null = null;
  for (const address of state.poolsByToken.get(token) ?? []) {
    const pool = state.pools.get(address);
    // A pool whose trades need not happen at its price (a V4 hook returning deltas) never prices.
    if (!pool || familyOf(pool.kind).priceSourceExclusion?.(pool)) continue;
    const quote = pool.token0 === token ? pool.token1 : pool.token0;
    if (!((config.quoteRank.get(quote) ?? Number.POSITIVE_INFINITY) < rank)) continue;
    const quotePrice = state.prices.get(quote)?.price ?? null;
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

/**
 * The token's USD price (scaled by 10^36) and where it comes from: the pool's address, or for the
 * anchor the feed's address (`usd-feed`) or the pegged token's own address (`usd-peg`).
 */
export function priceWithSource(state: IndexerState, token: string, config: PricingConfig): { price: bigint | null; source: string | null } {
  const anchor = config.anchor;
  if (anchor && token === anchor.token) {
    if (anchor.kind === 'usd-peg') return { price: ONE, source: token };
    return state.feed ? { price: state.feed.price, source: anchor.feed } : { price: null, source: null };
  }
  const source = pickPriceSource(state, token, config);
  if (!source) return { price: null, source: null };
  const inQuote = poolPrice(state.pools.get(source.pool)!, token, state.tokens.get(token)!.decimals, source.quoteDecimals);
  return inQuote === null ? { price: null, source: null } : { price: (inQuote * source.quotePrice) / SCALE, source: source.pool };
}

/** How `source` (as priceWithSource returns it) prices `token`. */
export function sourceKindOf(config: PricingConfig, token: string, source: string | null): PriceSourceKind | null {
  if (source === null) return null;
  const anchor = config.anchor;
  if (anchor && token === anchor.token) return anchor.kind;
  return 'pool';
}
