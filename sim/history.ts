// Values over block numbers: each key (a pool's state, a balance, the feed, a supply) keeps the
// blocks at which it changed and its value after each, so a read at block N is a binary search.

type Series = { blocks: number[]; values: unknown[] };

export class History {
  private readonly series = new Map<string, Series>();

  /** The value after block `n` (undefined before the first change). */
  at<T>(key: string, n: number): T | undefined {
    const s = this.series.get(key);
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
  set(key: string, n: number, value: unknown): void {
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { blocks: [], values: [] }));
    const last = s.blocks.length - 1;
    if (last >= 0 && s.blocks[last] === n) s.values[last] = value;
    else {
      s.blocks.push(n);
      s.values.push(value);
    }
  }

  /** Forgets every change after block `n` (a reorganisation below it). */
  truncateAbove(n: number): void {
    for (const [key, s] of this.series) {
      while (s.blocks.length > 0 && s.blocks[s.blocks.length - 1]! > n) {
        s.blocks.pop();
        s.values.pop();
      }
      if (s.blocks.length === 0) this.series.delete(key);
    }
  }

  keys(): IterableIterator<string> {
    return this.series.keys();
  }

  get size(): number {
    return this.series.size;
  }

  /** Changes recorded (for the startup report). */
  entries(): number {
    let n = 0;
    for (const s of this.series.values()) n += s.blocks.length;
    return n;
  }
}
