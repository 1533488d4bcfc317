// The window-start prices a forward step read, kept for the next one: a step that reprices the whole
// catalogue (a USD feed round moves every token quoted against the wrapped native token) reads
// again only the tokens whose window starts passed a price change, not an index probe per token
// and window.
import type { Queryable } from '../../db/index.ts';
import type { PriceChange } from '../../db/indexer/index.ts';
import type { WindowPriceCache } from '../state/IndexerState.ts';
import { loadWindowPrices, PRICE_WINDOWS, type PriceWindow, type WindowPrices } from './priceWindows.ts';

const WINDOWS = Object.keys(PRICE_WINDOWS) as PriceWindow[];

/**
 * The window prices at `at` of `tokens`. `cache` holds its tokens' prices as at the stored figures'
 * time (`since`); `moved` is every token whose window starts passed a price change since then
 * (tokensWhoseWindowsMoved). Every other cached token's prices are the same at `at` (the rule the
 * step's incremental figures already rest on): the moved ones are dropped, the tokens not cached
 * read and stored, and the cache then holds its tokens' prices as at `at`. Without `moved` (figures
 * from scratch) the cache is emptied first and every token read.
 */
export async function windowPricesOf(
  db: Queryable, at: Date, tokens: readonly string[], cache: WindowPriceCache, moved: Iterable<string> | null,
): Promise<WindowPrices> {
  if (moved === null) cache.clear();
  else for (const token of moved) cache.delete(token);
  const read = tokens.filter((token) => !cache.has(token));
  const loaded = await loadWindowPrices(db, at, read);
  for (const token of read) {
    const entry = {} as Record<PriceWindow, PriceChange | null>;
    for (const window of WINDOWS) entry[window] = loaded[window].get(token) ?? null;
    cache.set(token, entry);
  }
  const prices = {} as WindowPrices;
  for (const window of WINDOWS) {
    const map = new Map<string, PriceChange>();
    for (const token of tokens) {
      const price = cache.get(token)![window] ?? null; // every window is set when a token is stored
      if (price !== null) map.set(token, price);
    }
    prices[window] = map;
  }
  return prices;
}
