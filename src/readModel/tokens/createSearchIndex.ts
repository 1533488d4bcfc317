import { sortInSlices } from './sortInSlices.ts';

/**
 * How a token matched a search term, for the default ranking (lower first): its symbol is the
 * term, its symbol starts with it, a word of its name starts with it, its address starts with it.
 */
export type MatchGroup = 0 | 1 | 2 | 3;
export const EXACT_SYMBOL: MatchGroup = 0;
export const SYMBOL_PREFIX: MatchGroup = 1;
export const NAME_WORD: MatchGroup = 2;
export const ADDRESS_PREFIX: MatchGroup = 3;

/** Slots `slots[from..to)` match in `group`. */
export type MatchRange = { group: MatchGroup; slots: readonly number[]; from: number; to: number };

export type SearchIndex = {
  /** Records (or replaces) the searchable keys of the token in `slot`. */
  set(slot: number, token: { address: string; symbol: string; name: string }): void;
  /**
   * The tokens matching a term (already trimmed, 1–64 characters), as ranges of slots, best
   * group first; a token matched twice (by symbol and by name) is in a later range again.
   */
  find(term: string): MatchRange[];
  /** The slot arrays that ranges point into (addresses, symbols, name words). */
  slotArrays(): readonly (readonly number[])[];
};

/** A term of 0x and 2 to 40 hex digits searches addresses; anything else symbols and names. */
const ADDRESS_TERM = /^0x[0-9a-f]{2,40}$/;
/** Search terms are at most 64 characters: longer name keys never decide a match. */
const KEY_CHARS = 64;
/** Symbols are compared whole (an exact match ranks first), up to this length. */
const SYMBOL_CHARS = 256;
/** Words of a name indexed at most (a spam name may be hundreds of characters). */
const MAX_WORDS = 16;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Strings kept sorted, each with the slot it belongs to; ranges found by binary search. */
class SortedKeys {
  keys: string[] = [];
  slots: number[] = [];

  /** First index whose key is ≥ `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(key: string, slot: number): void {
    const at = this.lowerBound(key);
    this.keys.splice(at, 0, key);
    this.slots.splice(at, 0, slot);
  }

  remove(key: string, slot: number): void {
    for (let i = this.lowerBound(key); i < this.keys.length && this.keys[i] === key; i++) {
      if (this.slots[i] === slot) {
        this.keys.splice(i, 1);
        this.slots.splice(i, 1);
        return;
      }
    }
  }

  /** First index at or after `from` whose key neither is below `prefix` nor starts with it. */
  prefixEnd(prefix: string, from: number): number {
    let lo = from;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const key = this.keys[mid]!;
      if (key < prefix || key.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Replaces the content with unsorted keys and their slots, sorted once (a full load). */
  bulk(keys: string[], slots: number[]): void {
    const order = new Uint32Array(keys.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    this.take(order.sort(byKeyThenSlot(keys, slots)), keys, slots);
  }

  /** bulk(), sorted in slices with `pause` between them (sortInSlices). */
  async bulkInSlices(keys: string[], slots: number[], pause: () => Promise<void>): Promise<void> {
    this.take(await sortInSlices(keys.length, byKeyThenSlot(keys, slots), pause), keys, slots);
  }

  private take(order: Uint32Array, keys: string[], slots: number[]): void {
    this.keys = Array.from(order, (i) => keys[i]!);
    this.slots = Array.from(order, (i) => slots[i]!);
  }
}

/** Keys in code-unit order, equal keys by slot: a total order (a token's word twice is the same pair). */
const byKeyThenSlot = (keys: string[], slots: number[]) => (a: number, b: number) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : slots[a]! - slots[b]!);

/** Tokens whose keys are taken between two pauses of a load in slices. */
const KEYS_SLICE = 1024;

type Keys = { address: string; symbol: string; words: string[] };

/** The searchable keys of a token: lower-case address, symbol, and name suffixes at word starts. */
function keysOf(token: { address: string; symbol: string; name: string }): Keys {
  const name = token.name.toLowerCase();
  const words: string[] = [];
  let previousIsWord = false;
  for (let i = 0; i < name.length && words.length < MAX_WORDS; ) {
    const char = String.fromCodePoint(name.codePointAt(i)!);
    const isWord = WORD_CHAR.test(char);
    if (isWord && !previousIsWord) words.push(name.slice(i, i + KEY_CHARS));
    previousIsWord = isWord;
    i += char.length;
  }
  return { address: token.address.toLowerCase(), symbol: token.symbol.toLowerCase().slice(0, SYMBOL_CHARS), words };
}

/**
 * The token catalogue's search keys: symbols, words of names and addresses, each in one sorted
 * array, so a term is found by binary search (prefixes are ranges) instead of a scan of every
 * token. Tokens are added or changed one at a time (a few binary searches each), or all at once
 * on a full load (one sort).
 */
type SlotToken = { slot: number; address: string; symbol: string; name: string };

export type LoadableSearchIndex = SearchIndex & {
  /** Replaces the content with these tokens' keys. */
  load(tokens: Iterable<SlotToken>): void;
  /**
   * load() in slices with `pause` between them, for a catalogue that answers requests meanwhile;
   * the index must not be read or set until it resolves.
   */
  loadInSlices(tokens: readonly SlotToken[], pause: () => Promise<void>): Promise<void>;
};

export function createSearchIndex(): LoadableSearchIndex {
  const bySlot = new Map<number, Keys>();
  const addresses = new SortedKeys();
  const symbols = new SortedKeys();
  const words = new SortedKeys();
  const collected = () => ({ a: { keys: [] as string[], slots: [] as number[] }, s: { keys: [] as string[], slots: [] as number[] }, w: { keys: [] as string[], slots: [] as number[] } });
  const collect = (into: ReturnType<typeof collected>, token: SlotToken) => {
    const keys = keysOf(token);
    bySlot.set(token.slot, keys);
    into.a.keys.push(keys.address);
    into.a.slots.push(token.slot);
    into.s.keys.push(keys.symbol);
    into.s.slots.push(token.slot);
    for (const word of keys.words) {
      into.w.keys.push(word);
      into.w.slots.push(token.slot);
    }
  };

  return {
    load(tokens) {
      bySlot.clear();
      const { a, s, w } = collected();
      for (const token of tokens) collect({ a, s, w }, token);
      addresses.bulk(a.keys, a.slots);
      symbols.bulk(s.keys, s.slots);
      words.bulk(w.keys, w.slots);
    },
    async loadInSlices(tokens, pause) {
      bySlot.clear();
      const into = collected();
      for (let i = 0; i < tokens.length; i++) {
        if (i > 0 && i % KEYS_SLICE === 0) await pause();
        collect(into, tokens[i]!);
      }
      await addresses.bulkInSlices(into.a.keys, into.a.slots, pause);
      await symbols.bulkInSlices(into.s.keys, into.s.slots, pause);
      await words.bulkInSlices(into.w.keys, into.w.slots, pause);
    },
    set(slot, token) {
      const keys = keysOf(token);
      const before = bySlot.get(slot);
      if (before && before.address === keys.address && before.symbol === keys.symbol && before.words.join('\0') === keys.words.join('\0')) return;
      if (before) {
        addresses.remove(before.address, slot);
        symbols.remove(before.symbol, slot);
        for (const word of before.words) words.remove(word, slot);
      }
      bySlot.set(slot, keys);
      addresses.insert(keys.address, slot);
      symbols.insert(keys.symbol, slot);
      for (const word of keys.words) words.insert(word, slot);
    },
    slotArrays: () => [addresses.slots, symbols.slots, words.slots],
    find(raw) {
      const term = raw.toLowerCase();
      const range = (group: MatchGroup, keys: SortedKeys, from: number, to: number): MatchRange => ({ group, slots: keys.slots, from, to });
      if (ADDRESS_TERM.test(term)) {
        const from = addresses.lowerBound(term);
        return [range(ADDRESS_PREFIX, addresses, from, addresses.prefixEnd(term, from))];
      }
      // keys equal to the term sort first among those that start with it
      const from = symbols.lowerBound(term);
      let exactEnd = from;
      while (exactEnd < symbols.keys.length && symbols.keys[exactEnd] === term) exactEnd++;
      const wordsFrom = words.lowerBound(term);
      return [
        range(EXACT_SYMBOL, symbols, from, exactEnd),
        range(SYMBOL_PREFIX, symbols, exactEnd, symbols.prefixEnd(term, exactEnd)),
        range(NAME_WORD, words, wordsFrom, words.prefixEnd(term, wordsFrom)),
      ];
    },
  };
}
