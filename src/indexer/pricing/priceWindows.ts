// The price-change windows: each token's change against the price in force that long before the
// last indexed block. The 24 h window is last24hVariation: one computation, one stored column.
import type { Queryable } from '../../db/index.ts';
import { loadPricesAt, loadTokensChangedIn, type PriceChange } from '../../db/indexer/index.ts';

const HOUR_MS = 3_600_000;

/** Window name (as in the API's `info.priceChange`) → its length in ms of chain time. */
export const PRICE_WINDOWS = { h1: HOUR_MS, h6: 6 * HOUR_MS, h24: 24 * HOUR_MS, d7: 7 * 24 * HOUR_MS } as const;

export type PriceWindow = keyof typeof PRICE_WINDOWS;

/** Per window, each token's last price change at or before `at` − the window. */
export type WindowPrices = Record<PriceWindow, Map<string, PriceChange>>;

/** The prices in force at each window's start (with `tokens`, only theirs: an index probe each). */
export async function loadWindowPrices(db: Queryable, at: Date, tokens?: readonly string[]): Promise<WindowPrices> {
  const prices = {} as WindowPrices;
  for (const window of Object.keys(PRICE_WINDOWS) as PriceWindow[]) {
    prices[window] = await loadPricesAt(db, new Date(at.getTime() - PRICE_WINDOWS[window]), tokens);
  }
  return prices;
}

/**
 * The tokens whose price at some window's start differs between `since` and `at` (since < at): those
 * with a change observed in (since − window, at − window] for some window. Every other token's
 * window prices at `at` are those at `since`.
 */
export function tokensWhoseWindowsMoved(db: Queryable, since: Date, at: Date): Promise<string[]> {
  const spans = Object.values(PRICE_WINDOWS).map((ms) => ({ after: new Date(since.getTime() - ms), upTo: new Date(at.getTime() - ms) }));
  return loadTokensChangedIn(db, spans);
}
