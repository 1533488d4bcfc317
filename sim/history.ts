// Values over block numbers: each key (a pool's state, a balance, the feed, a supply) keeps the
// blocks at which it changed and its value after each, so a read at block N is a binary search.
// A key is a number below 2^53; it is kept in two maps keyed by small integers (key / 2^21 and
// key mod 2^21), which V8 hashes much faster than large numbers or strings.

type Series = { blocks: number[]; values: unknown[] };
const SPLIT = 2 ** 21;

export class History {
  private readonly groups = new Map<number, Map<number, Series>>();

  private find(key: number): Series | undefined {
    return this.groups.get(Math.floor(key / SPLIT))?.get(key % SPLIT);
  }

  /** The value after block `n` (undefined before the first change). */
  at<T>(key: number, n: number): T | undefined {
    if (key < 0) return undefined;
    const s = this.find(key);
    if (!s) return undefined;
    const { blocks } = s;
    let hi = blocks.length - 1;
    if (hi < 0 || blocks[0]! > n) return undefined;
    if (blocks[hi]! <= n) return s.values[hi] as T;
    let lo = 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (blocks[mid]! <= n) lo = mid;
      else hi = mid - 1;
    }
    return s.values[lo] as T;
  }

  /** Records `value` after block `n` (blocks are written in increasing order). */
  set(key: number, n: number, value: unknown): void {
    const g = Math.floor(key / SPLIT);
    let group = this.groups.get(g);
    if (!group) this.groups.set(g, (group = new Map()));
    let s = group.get(key % SPLIT);
    if (!s) group.set(key % SPLIT, (s = { blocks: [], values: [] }));
    const last = s.blocks.length - 1;
    if (last >= 0 && s.blocks[last] === n) s.values[last] = value;
    else {
      s.blocks.push(n);
      s.values.push(value);
    }
  }

  /** Forgets every change after block `n` (a reorganisation below it). */
  truncateAbove(n: number): void {
    for (const group of this.groups.values()) {
      for (const [id, s] of group) {
        while (s.blocks.length > 0 && s.blocks[s.blocks.length - 1]! > n) {
          s.blocks.pop();
          s.values.pop();
        }
        if (s.blocks.length === 0) group.delete(id);
      }
    }
  }

  *keys(): IterableIterator<number> {
    for (const [g, group] of this.groups) for (const id of group.keys()) yield g * SPLIT + id;
  }

  get size(): number {
    let n = 0;
    for (const group of this.groups.values()) n += group.size;
    return n;
  }

  /** Changes recorded (for the startup report). */
  entries(): number {
    let n = 0;
    for (const group of this.groups.values()) for (const s of group.values()) n += s.blocks.length;
    return n;
  }
}
