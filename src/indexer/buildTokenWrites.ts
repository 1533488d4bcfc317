// Turns indexer state into the API's token rows: price, 24 h variation (and the other price-change
// windows), fdv and the two flags.
import type { TokenWrite } from '../db/index.ts';
import type { IndexerState } from './IndexerState.ts';
import { fdvOf, isPossibleSpam, isSecure, variationOf } from './classifyToken.ts';
import { formatFixed, parseFixed } from './fixed.ts';
import type { PoolFigures } from './poolFigures.ts';
import type { PriceWindow, WindowPrices } from './priceWindows.ts';

export type TokenWriteContext = {
  /** Per window, each token's last price change at or before now − the window (24 h: last24hVariation). */
  pricesAgo: WindowPrices;
  /** Chain time of the last indexed block: stamped as updatedAt on changed rows. */
  at: Date;
  /** Scaled by 10^36. */
  secureFdvMinUsd: bigint;
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
    let liquidity: bigint | null = null;
    for (const poolAddress of state.poolsByToken.get(address) ?? []) {
      const value = ctx.figures.liquidity(state.pools.get(poolAddress)!);
      if (value !== null) liquidity = (liquidity ?? 0n) + value;
    }
    const spam = isPossibleSpam({ listed: token.listed, name: token.name, symbol: token.symbol, priced: price !== null });
    writes.push({
      address,
      name: token.name,
      symbol: token.symbol,
      decimals: token.decimals,
      logo: token.logo,
      totalSupply: token.totalSupply,
      currentPrice: price === null ? null : formatFixed(price),
      priceUpdatedAt: price === null ? null : (current?.observedAt ?? null),
      last24hVariation: change('h24'),
      priceChange1h: change('h1'),
      priceChange6h: change('h6'),
      priceChange7d: change('d7'),
      fdv: fdv === null ? null : formatFixed(fdv, VALUE_DIGITS),
      isPossibleSpam: spam,
      isSecure: isSecure({ listed: token.listed, priced: price !== null, fdv, spam }, ctx.secureFdvMinUsd),
      liquidity: liquidity === null ? null : formatFixed(liquidity, VALUE_DIGITS),
      priceSource: price === null ? null : (current?.source ?? null),
      firstSeenAt: token.firstSeenAt,
      firstSeenBlock: token.firstSeenBlock,
      at: ctx.at,
    });
  }
  return writes;
}
