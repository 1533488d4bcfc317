import type { MatchGroup } from './createSearchIndex.ts';
import { sortBy, type ApproxKeys, type SortRow } from './tokenOrder.ts';

/**
 * The default order of search matches (spec: the `search` parameter): by match group (exact
 * symbol, symbol prefix, name word, address), tokens not flagged as possible spam first within a
 * group, then by liquidity, largest first, then by address. Sorted by the last keys first, then
 * stably by group and spam flag.
 */
export function rankSearchMatches<T extends { row: SortRow; slot: number }>(items: readonly T[], groups: ReadonlyMap<T, MatchGroup>, keys: ApproxKeys): T[] {
  const byLiquidity = sortBy(items, 'contractAddress', 'asc', keys);
  const rank = (item: T) => groups.get(item)! * 2 + (item.row.isPossibleSpam ? 1 : 0);
  return byLiquidity.sort((a, b) => rank(a) - rank(b));
}
