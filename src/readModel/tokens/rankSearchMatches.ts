import type { SearchIndex } from './createSearchIndex.ts';
import type { SortRow } from './tokenOrder.ts';

type Item = { row: SortRow; slot: number };

const NOT_PLACED = 0xffffffff;

/**
 * The default order of search matches (spec: the `search` parameter): by match group (exact
 * symbol, symbol prefix, name word, address), tokens not flagged as possible spam first within a
 * group, then by liquidity, largest first, then by address. The order within a group does not
 * depend on the term: every token's place in it (`standing`) is computed once per change of the tokens' sort rows.
 * The index's keys are mapped to places then too. A search marks its matches' places with its
 * stamp and their group and reads the page off the marks in place order, group by group: a
 * scan of the marks for a group with many matches, a sort of its few places otherwise.
 */
export function createSearchRanking<T extends Item>(): {
  /**
   * Every token's place in the order within a group, recomputed when `version` moves or the index
   * is another: `byLiquidity` gives every token by liquidity, largest first (none last), then address.
   */
  prepare(version: number, byLiquidity: () => readonly T[], index: SearchIndex): void;
  /** How many matches of `term` `keep` accepts, and those from `start` to `end` in rank order. */
  rank(index: SearchIndex, term: string, bySlot: readonly T[], keep: ((item: T) => boolean) | undefined, start: number, end: number): { total: number; page: T[] };
  /** Every match of `term` that `keep` accepts, in no particular order. */
  matches(index: SearchIndex, term: string, bySlot: readonly T[], keep: ((item: T) => boolean) | undefined): T[];
} {
  let preparedAt: number | undefined;
  let preparedFor: SearchIndex | undefined;
  let atPlace: T[] = []; // place → item
  // each of the index's slot arrays as places, so that marking reads them in sequence
  let placesOf = new Map<readonly number[], Uint32Array>();
  // place → stamp × 4 + group of the last search that matched it: nothing to clear afterwards
  let marks = new Uint32Array(0);
  let marked = new Uint32Array(0); // the places the search in progress matched
  let stamp = 0;
  const counts = [0, 0, 0, 0];

  /** Marks the places of the accepted matches (all of them without `keep`); returns how many. */
  function mark(index: SearchIndex, term: string, bySlot: readonly T[], keep: ((item: T) => boolean) | undefined): number {
    counts.fill(0);
    stamp++;
    if (stamp >= 2 ** 30) {
      marks.fill(0);
      stamp = 1;
    }
    const base = stamp * 4;
    let n = 0;
    for (const range of index.find(term)) {
      const places = placesOf.get(range.slots)!;
      for (let i = range.from; i < range.to; i++) {
        const place = places[i]!;
        if (place === NOT_PLACED || marks[place]! >= base) continue; // not prepared, or matched in a better group
        if (keep && !keep(bySlot[range.slots[i]!]!)) continue; // (reading the row is a cache miss: only when filtering)
        marks[place] = base + range.group;
        marked[n++] = place;
        counts[range.group]!++;
      }
    }
    return n;
  }

  return {
    prepare(version, byLiquidity, index) {
      if (preparedAt === version && preparedFor === index) return;
      const all = byLiquidity();
      // spam last, each part in liquidity order
      atPlace = [...all.filter((item) => !item.row.isPossibleSpam), ...all.filter((item) => item.row.isPossibleSpam)];
      const slots = all.reduce((max, item) => Math.max(max, item.slot + 1), 0);
      const standing = new Uint32Array(slots).fill(NOT_PLACED);
      atPlace.forEach((item, place) => (standing[item.slot] = place));
      placesOf = new Map(index.slotArrays().map((a) => [a, Uint32Array.from(a, (slot) => standing[slot] ?? NOT_PLACED)]));
      marks = new Uint32Array(atPlace.length);
      marked = new Uint32Array(atPlace.length);
      stamp = 0;
      preparedAt = version;
      preparedFor = index;
    },
    rank(index, term, bySlot, keep, start, end) {
      const total = mark(index, term, bySlot, keep);
      const base = stamp * 4;
      const page: T[] = [];
      let skip = start;
      for (let group = 0; group < counts.length && start + page.length < end; group++) {
        const count = counts[group]!;
        if (skip >= count) {
          skip -= count;
          continue;
        }
        const wanted = base + group;
        let k = 0;
        if (count * Math.log2(count + 1) * 4 < marks.length) {
          // few matches: sort their places rather than scan every place
          const places = new Uint32Array(count);
          for (let i = 0; i < total; i++) if (marks[marked[i]!] === wanted) places[k++] = marked[i]!;
          places.sort();
          for (k = Math.min(skip, count); k < count && start + page.length < end; k++) page.push(atPlace[places[k]!]!);
        } else {
          for (let place = 0; place < marks.length && start + page.length < end; place++) {
            if (marks[place] !== wanted) continue;
            if (k++ >= skip) page.push(atPlace[place]!);
          }
        }
        skip = 0;
      }
      return { total, page };
    },
    matches(index, term, bySlot, keep) {
      const n = mark(index, term, bySlot, keep);
      return Array.from(marked.subarray(0, n), (place) => atPlace[place]!);
    },
  };
}
