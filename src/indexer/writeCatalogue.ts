// Token and pool rows rebuilt from the indexer state at one chain time, in the caller's
// transaction: after a head-first bootstrap and after each history range it fills (the rows' window
// figures depend on history that was not stored before). Every row, or only the rows of `scope`:
// then the 24 h swap counts and the trust scores, which a range older than the 24 h window leaves
// as they are, are not refreshed either.
import { refreshSwapCounts, upsertPools, upsertTokens, type Queryable } from '../db/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { buildPoolWrites } from './buildPoolWrites.ts';
import { buildTokenWrites } from './buildTokenWrites.ts';
import { createPoolFigures } from './pricing/poolFigures.ts';
import { loadWindowPrices } from './pricing/priceWindows.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { writeTokenTrust } from './trust/writeTokenTrust.ts';

export type CatalogueScope = { tokens: ReadonlySet<string>; pools: ReadonlySet<string> };

export async function writeCatalogue(tx: Queryable, ctx: IndexerContext, state: IndexerState, at: Date, scope?: CatalogueScope): Promise<void> {
  const figures = createPoolFigures(state);
  const tokens = [...(scope?.tokens ?? state.tokens.keys())].filter((t) => state.tokens.has(t)).sort();
  const pools = [...(scope?.pools ?? state.pools.keys())].filter((p) => state.pools.has(p)).sort();
  if (tokens.length > 0) {
    const pricesAgo = await loadWindowPrices(tx, at, tokens);
    await upsertTokens(tx, buildTokenWrites(state, tokens, { pricesAgo, at, pricing: ctx.pricing, listedSymbols: ctx.listedSymbols, figures }));
  }
  if (pools.length > 0) await upsertPools(tx, buildPoolWrites(state, pools, figures));
  if (scope) return;
  await refreshSwapCounts(tx, at, state.swaps24h);
  await writeTokenTrust(tx, ctx, state, figures, at);
}
