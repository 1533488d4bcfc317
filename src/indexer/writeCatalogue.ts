// Every token and pool row rebuilt from the indexer state at one chain time, in the caller's
// transaction: after a head-first bootstrap and after each history range it fills (the rows' window
// figures depend on history that was not stored before).
import { refreshSwapCounts, upsertPools, upsertTokens, type Queryable } from '../db/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { buildPoolWrites } from './buildPoolWrites.ts';
import { buildTokenWrites } from './buildTokenWrites.ts';
import { createPoolFigures } from './pricing/poolFigures.ts';
import { loadWindowPrices } from './pricing/priceWindows.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { writeTokenTrust } from './trust/writeTokenTrust.ts';

export async function writeCatalogue(tx: Queryable, ctx: IndexerContext, state: IndexerState, at: Date): Promise<void> {
  const figures = createPoolFigures(state);
  const tokens = [...state.tokens.keys()].sort();
  const pricesAgo = await loadWindowPrices(tx, at, tokens);
  await upsertTokens(tx, buildTokenWrites(state, tokens, { pricesAgo, at, pricing: ctx.pricing, listedSymbols: ctx.listedSymbols, figures }));
  await upsertPools(tx, buildPoolWrites(state, [...state.pools.keys()].sort(), figures));
  await refreshSwapCounts(tx, at, state.swaps24h);
  await writeTokenTrust(tx, ctx, state, figures, at);
}
