// A batch's supply step: total supplies of the tokens that traded (of every token when the batch
// crosses a refresh boundary) and, at the same time, circulating supplies within their call budget. Returns every
// token whose row must be written: the new ones and those whose supplies changed.
import { readTotalSupplies } from '../chain/index.ts';
import type { IndexerToken } from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { refreshCirculating } from './circulating/refreshCirculating.ts';
import type { IndexerState } from './state/IndexerState.ts';

export async function refreshSupplies(
  ctx: IndexerContext,
  state: IndexerState,
  batch: { from: number; to: number; toTime: Date },
  newTokens: readonly IndexerToken[],
  traded: ReadonlySet<string>,
): Promise<IndexerToken[]> {
  const { from, to } = batch;
  const refreshAll = Math.floor((from - 1) / ctx.config.supplyRefreshBlocks) !== Math.floor(to / ctx.config.supplyRefreshBlocks);
  const fresh = new Set(newTokens.map((t) => t.address));
  const targets = [...(refreshAll ? state.tokens.keys() : traded)].filter((t) => !fresh.has(t));
  // The two reads are independent (total supplies; circulating figures, fields of their own): one
  // round of waiting instead of two.
  const touched = [...fresh, ...traded];
  const [supplies, circulating] = await Promise.all([
    readTotalSupplies(ctx.chain, targets, to, ctx.config.multicall3),
    refreshCirculating(ctx, state, batch, touched),
  ]);
  const changed: IndexerToken[] = [...newTokens];
  targets.forEach((address, i) => {
    const token = state.tokens.get(address)!;
    const supply = supplies[i] ?? null;
    if (supply !== null && supply !== token.totalSupply) {
      token.totalSupply = supply;
      token.supplyBlock = to;
      changed.push(token);
    }
  });
  // Circulating supplies at the batch end: tokens new or traded in it, then those due (refresh window, rollback), within a call budget.
  const listed = new Set(changed);
  for (const token of circulating) if (!listed.has(token)) changed.push(token);
  return changed;
}
