// USD price of a token (docs/indexer.md, "Pricing"). USD is anchored by one of two rules:
// - `usd-basket` (any stablecoin configured): USD is the median of the configured stablecoins'
//   markets against each other. Each stablecoin is rated in the reference stablecoin's units through
//   its deepest pool against an earlier stablecoin; the lower median of those rates is 1 USD, so a
//   minority of stablecoins leaving the peg never moves the others. The wrapped native token is
//   priced from its deepest pool against the stablecoins. With a USD feed configured, the feed
//   guards the basket: when the basket's price of the wrapped native token is off the feed's by more
//   than the guard, the whole basket has left USD and the feed takes over as the anchor.
// - `usd-feed` (no stablecoin configured, or the guard tripped): the wrapped native token is the
//   feed's answer and the stablecoins are priced through pools against it, in their order.
// Every other token is priced through a pool against a quote token (the stablecoins and the
// wrapped native token). Of the allowed pools whose liquidity (quote side × 2, in USD) reaches the
// minimum, the price source is the one with the greatest depth within ±2 % of spot.
import type { IndexerState } from '../state/IndexerState.ts';
import { SCALE, pow10 } from '../math/fixed.ts';
import { familyOf } from '../families/index.ts';
import { poolPrice, quoteBalance, quoteDepth } from './poolQuotes.ts';

export type UsdAnchor =
  /** `token`: the reference stablecoin, whose price is 1 USD divided by the basket's median. */
  | { kind: 'usd-basket'; token: string; members: readonly string[]; wrappedNative: string | null; feed: string | null; guard: bigint }
  /** `token`: the wrapped native token, the feed's answer. */
  | { kind: 'usd-feed'; token: string; feed: string };

export type PricingConfig = {
  /** Null: nothing can be priced (no feed and no stablecoin configured). */
  anchor: UsdAnchor | null;
  /** Every quote token (lower case): the stablecoins and the wrapped native token. */
  quotes: readonly string[];
  quoteRank: ReadonlyMap<string, number>;
  /** Scaled by 10^36. */
  minLiquidityUsd: bigint;
};

/** What prices a token: a pool, the USD feed, or the stablecoin basket (the reference stablecoin). */
export type PriceSourceKind = 'pool' | 'usd-feed' | 'usd-basket';

/** The basket is off USD when its wrapped-native price is this far from the feed's (2 %, scaled by 10^36). */
export const DEFAULT_USD_GUARD = SCALE / 50n;

export function createPricingConfig(options: {
  stablecoins: readonly string[];
  wrappedNative: string | null;
  usdFeed: string | null;
  /** The basket's reference stablecoin (default: the first); it only names the unit rates are read in. */
  usdPeg: string | null;
  minLiquidityUsd: bigint;
  usdGuard?: bigint;
}): PricingConfig {
  const peg = options.usdPeg?.toLowerCase() ?? null;
  const members = [...new Set([...(peg ? [peg] : []), ...options.stablecoins.map((a) => a.toLowerCase())])];
  const weth = options.wrappedNative?.toLowerCase() ?? null;
  const feed = options.usdFeed?.toLowerCase() ?? null;
  let anchor: UsdAnchor | null = null;
  if (members.length > 0) anchor = { kind: 'usd-basket', token: members[0]!, members, wrappedNative: weth, feed: weth ? feed : null, guard: options.usdGuard ?? DEFAULT_USD_GUARD };
  else if (feed && weth) anchor = { kind: 'usd-feed', token: weth, feed };
  const quotes = anchor ? [...new Set([...members, ...(weth ? [weth] : [])])] : [];
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

export type PricedBy = { price: bigint | null; source: string | null };
type QuotePrice = (quote: string) => bigint | null;

/**
 * The token's deepest pool against a quote token `allowed` accepts, valued with `priceOf`; by
 * default any quote token at its current price.
 */
export function pickPriceSource(
  state: IndexerState, token: string, config: PricingConfig,
  allowed: (quote: string) => boolean = (q) => config.quoteRank.has(q),
  priceOf: QuotePrice = (q) => state.prices.get(q)?.price ?? null,
): PriceSource | null {
  const meta = state.tokens.get(token);
  if (!meta || !meta.decimalsKnown || meta.decimals > MAX_PRICED_DECIMALS) return null;
  let best: PriceSource | null = null;
  for (const address of poolsAgainstQuotes(state, token, config)) {
    const pool = state.pools.get(address);
    // A pool whose trades need not happen at its price (a V4 hook returning deltas) never prices.
    if (!pool || familyOf(pool.kind).priceSourceExclusion?.(pool)) continue;
    const quote = pool.token0 === token ? pool.token1 : pool.token0;
    if (quote === token || !allowed(quote)) continue;
    const quotePrice = priceOf(quote);
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

/**
 * The token's pools whose other token is a quote token: the only pools `allowed` can accept (it
 * accepts quote tokens only). A quote token's pools number in the thousands on a large network and
 * it is priced in every block that moves one of its pools, so the list is kept per token set; pools
 * are only ever added to a token's set (a rollback loads a new state), so its size tells when it is stale.
 */
const quotePoolsBySet = new WeakMap<ReadonlySet<string>, { size: number; quotes: ReadonlyMap<string, number>; pools: string[] }>();

function poolsAgainstQuotes(state: IndexerState, token: string, config: PricingConfig): readonly string[] {
  const all = state.poolsByToken.get(token);
  if (!all) return [];
  const known = quotePoolsBySet.get(all);
  if (known && known.size === all.size && known.quotes === config.quoteRank) return known.pools;
  const pools: string[] = [];
  for (const address of all) {
    const pool = state.pools.get(address);
    if (pool && config.quoteRank.has(pool.token0 === token ? pool.token1 : pool.token0)) pools.push(address);
  }
  quotePoolsBySet.set(all, { size: all.size, quotes: config.quoteRank, pools });
  return pools;
}

/** The token's price through `source` (scaled by 10^36), or null when the pool cannot say. */
function priceThrough(state: IndexerState, token: string, source: PriceSource | null): PricedBy {
  if (!source) return { price: null, source: null };
  const inQuote = poolPrice(state.pools.get(source.pool)!, token, state.tokens.get(token)!.decimals, source.quoteDecimals);
  return inQuote === null ? { price: null, source: null } : { price: (inQuote * source.quotePrice) / SCALE, source: source.pool };
}

/**
 * Every quote token's price at once (they depend on each other through the anchor), by the rules
 * at the top of this file. Tokens absent from the answer are not quote tokens.
 */
export function priceQuoteTokens(state: IndexerState, config: PricingConfig): Map<string, PricedBy> {
  const anchor = config.anchor;
  const out = new Map<string, PricedBy>();
  if (!anchor) return out;
  if (anchor.kind === 'usd-feed') return priceFromFeed(state, config, anchor.token, anchor.feed, [], out);
  const basket = priceFromBasket(state, config, anchor);
  const weth = anchor.wrappedNative;
  if (anchor.feed && weth && state.feed && offFeed(basket.get(weth)?.price ?? null, state.feed.price, anchor.guard)) {
    return priceFromFeed(state, config, weth, anchor.feed, anchor.members, new Map());
  }
  return basket;
}

/** The wrapped native token at the feed's answer, then each stablecoin through pools against it and the stablecoins before it. */
function priceFromFeed(state: IndexerState, config: PricingConfig, weth: string, feed: string, members: readonly string[], out: Map<string, PricedBy>): Map<string, PricedBy> {
  out.set(weth, state.feed ? { price: state.feed.price, source: feed } : { price: null, source: null });
  const priceOf: QuotePrice = (q) => out.get(q)?.price ?? null;
  for (const member of members) out.set(member, priceThrough(state, member, pickPriceSource(state, member, config, (q) => out.has(q), priceOf)));
  return out;
}

function priceFromBasket(state: IndexerState, config: PricingConfig, anchor: Extract<UsdAnchor, { kind: 'usd-basket' }>): Map<string, PricedBy> {
  // Rates in the reference stablecoin's units: each member through its deepest pool against an earlier member.
  const rates = new Map<string, PricedBy>([[anchor.token, { price: SCALE, source: null }]]);
  const rateOf: QuotePrice = (q) => rates.get(q)?.price ?? null;
  for (const member of anchor.members.slice(1)) {
    rates.set(member, priceThrough(state, member, pickPriceSource(state, member, config, (q) => rates.has(q), rateOf)));
  }
  const median = lowerMedian([...rates].filter(([, r]) => r.price !== null).map(([member, r]) => ({ member, rate: r.price! })));
  const out = new Map<string, PricedBy>();
  for (const member of anchor.members) {
    const rate = rates.get(member)!;
    const price = rate.price === null ? null : (rate.price * SCALE) / median.rate;
    out.set(member, { price, source: price === null ? null : member === anchor.token ? median.member : rate.source });
  }
  const weth = anchor.wrappedNative;
  if (weth && !out.has(weth)) {
    const priceOf: QuotePrice = (q) => out.get(q)?.price ?? null;
    out.set(weth, priceThrough(state, weth, pickPriceSource(state, weth, config, (q) => anchor.members.includes(q), priceOf)));
  }
  // A stablecoin without a pool against an earlier one is outside the basket, priced like any token.
  const priced = (q: string) => (out.get(q)?.price ?? null) !== null;
  for (const member of anchor.members) {
    if (priced(member)) continue;
    out.set(member, priceThrough(state, member, pickPriceSource(state, member, config, priced, (q) => out.get(q)?.price ?? null)));
  }
  return out;
}

/** The middle rate; of the two middle ones, the lower (a real market's rate, never an average). */
function lowerMedian(rates: { member: string; rate: bigint }[]): { member: string; rate: bigint } {
  rates.sort((a, b) => (a.rate < b.rate ? -1 : a.rate > b.rate ? 1 : a.member < b.member ? -1 : 1));
  return rates[Math.floor((rates.length - 1) / 2)]!;
}

/** |price − feed| > guard × feed. */
function offFeed(price: bigint | null, feed: bigint, guard: bigint): boolean {
  if (price === null) return false;
  const gap = price > feed ? price - feed : feed - price;
  return gap * SCALE > guard * feed;
}

export function priceToken(state: IndexerState, token: string, config: PricingConfig): bigint | null {
  return priceWithSource(state, token, config).price;
}

/**
 * The token's USD price (scaled by 10^36) and where it comes from: a pool's address; for the
 * wrapped native token priced by the feed the feed's address; for the basket's reference
 * stablecoin the stablecoin whose market is the basket's median.
 */
export function priceWithSource(state: IndexerState, token: string, config: PricingConfig): PricedBy {
  if (config.quoteRank.has(token)) return priceQuoteTokens(state, config).get(token) ?? { price: null, source: null };
  return priceThrough(state, token, pickPriceSource(state, token, config));
}

/** How `source` (as priceWithSource returns it) prices `token`. */
export function sourceKindOf(config: PricingConfig, token: string, source: string | null): PriceSourceKind | null {
  if (source === null) return null;
  const anchor = config.anchor;
  if (anchor?.kind === 'usd-feed') return token === anchor.token ? 'usd-feed' : 'pool';
  if (anchor && source === anchor.feed && token === anchor.wrappedNative) return 'usd-feed';
  if (anchor && token === anchor.token && anchor.members.includes(source)) return 'usd-basket';
  return 'pool';
}
