// A batch's supply step: total supplies of the tokens that traded and of those whose refresh slot
// the batch passes (supplySlot: every token once per refresh period, spread over its blocks) and,
// at the same time, circulating supplies within their call budget. Returns every token whose row
// must be written: the new ones and those whose supplies changed.
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
  const period = ctx.config.supplyRefreshBlocks;
  const fresh = new Set(newTokens.map((t) => t.address));
  const due = new Set(traded);
  for (const address of state.tokens.keys()) if (slotPassed(supplySlot(address, period), from, to, period)) due.add(address);
  const targets = [...due].filter((t) => !fresh.has(t));
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

/**
 * The block of each refresh period (its number modulo the period) at which a token's total supply is
 * read even when it does not trade: from the token's address, so the catalogue's reads spread evenly
 * over the period instead of all falling in the step that crosses one of its multiples.
 */
export function supplySlot(address: string, period: number): number {
  return parseInt(address.slice(-8), 16) % period;
}

/** Whether blocks `from`..`to` hold a block whose number modulo `period` is `slot`. */
export function slotPassed(slot: number, from: number, to: number, period: number): boolean {
  if (to - from + 1 >= period) return true;
  const a = from % period;
  const b = to % period;
  return a <= b ? slot >= a && slot <= b : slot >= a || slot <= b;
}
