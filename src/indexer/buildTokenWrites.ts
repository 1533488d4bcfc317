// Turns indexer state into the API's token rows: price, 24 h variation (and the other price-change
// windows), fdv and the two flags.
import type { TokenWrite } from '../db/index.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { fdvOf, variationOf } from './classifyToken.ts';
import { marketCapOf } from './circulating/marketCapOf.ts';
import { formatFixed, parseFixed } from './math/fixed.ts';
import type { PoolFigures } from './pricing/poolFigures.ts';
import { sourceKindOf, type PricingConfig } from './pricing/priceToken.ts';
import type { ListedSymbols } from './spam/spamReasons.ts';
import { luresOf } from './trust/luresOf.ts';
import type { PriceWindow, WindowPrices } from './pricing/priceWindows.ts';

export type TokenWriteContext = {
  /** Per window, each token's last price change at or before now − the window (24 h: last24hVariation). */
  pricesAgo: WindowPrices;
  /** Chain time of the last indexed block: stamped as updatedAt on changed rows. */
  at: Date;
  pricing: PricingConfig;
  listedSymbols: ListedSymbols;
  /** Pool liquidity of this state (a token's liquidity sums its priced pools). */
  figures: PoolFigures;
};

const VALUE_DIGITS = 18;

export function buildTokenWrites(state: IndexerState, addresses: Iterable<string>, ctx: TokenWriteContext): TokenWrite[] {
  const writes: TokenWrite[] = [];
  for (const address of addresses) {
    const token = state.tokens.get(address);
    if (!token) continue;
    const current = state.prices.get(address);
    const price = current?.price ?? null;
    const change = (window: PriceWindow): string | null => {
      const past = ctx.pricesAgo[window].get(address)?.price ?? null;
      const variation = price !== null && past !== null ? variationOf(price, parseFixed(past)) : null;
      return variation === null ? null : formatFixed(variation, VALUE_DIGITS);
    };
    const fdv = price !== null ? fdvOf(price, token.totalSupply, token.decimals) : null;
    const liquidity = ctx.figures.tokenLiquidity(address);
    const lures = luresOf(state, token, ctx.listedSymbols);
    const source = price === null ? null : (current?.source ?? null);
    const sourceKind = sourceKindOf(ctx.pricing, address, source);
    const marketCap = marketCapOf(price, token.circulatingSupply, token.decimals);
    writes.push({
      address,
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      logo: token.logo,
      totalSupply: token.totalSupply,
      currentPrice: price === null ? null : formatFixed(price),
      priceUpdatedAt: price === null ? null : (current?.valueSince ?? null),
      marketUpdatedAt: price === null ? null : marketUpdatedAt(state, address, sourceKind, source, current?.observedAt ?? null),
      last24hVariation: change('h24'),
      priceChange1h: change('h1'),
      priceChange6h: change('h6'),
      priceChange7d: change('d7'),
      fdv: fdv === null ? null : formatFixed(fdv, VALUE_DIGITS),
      isPossibleSpam: lures.length > 0,
      spamReasons: JSON.stringify(lures),
      liquidity: liquidity === null ? null : formatFixed(liquidity, VALUE_DIGITS),
      priceSource: source,
      priceSourceKind: sourceKind,
      firstSeenAt: token.firstSeenAt,
      firstSeenBlock: token.firstSeenBlock,
      circulatingSupply: token.circulatingSupply,
      marketCap: marketCap === null ? null : formatFixed(marketCap, VALUE_DIGITS),
      at: ctx.at,
    });
  }
  return writes;
}

/**
 * How fresh the token's own market is: the last swap or sync of the price-source pool, the feed's
 * own update time for the feed anchor, the last event of any of its pools for the basket's
 * reference stablecoin; the price's own change time when the pool's event time is not stored.
 */
function marketUpdatedAt(state: IndexerState, token: string, kind: string | null, source: string | null, changedAt: Date | null): Date | null {
  if (kind === 'usd-feed') return state.feed?.updatedAt ?? changedAt;
  if (kind === 'pool' && source) return state.pools.get(source)?.lastEventAt ?? changedAt;
  let last: Date | null = null;
  for (const address of state.poolsByToken.get(token) ?? []) {
    const at = state.pools.get(address)?.lastEventAt ?? null;
    if (at && (!last || at > last)) last = at;
  }
  return last ?? changedAt;
}
