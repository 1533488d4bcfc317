// Which (emitter, topic0) pairs each built block holds, so that an address- or topic-filtered
// eth_getLogs skips the blocks with no matching log instead of regenerating them. Blocks are
// recorded in increasing order as the chain builds them (the blocks not recorded are empty);
// a reorganisation drops the records from its first block on.

const TOPICS_PER_ADDRESS = 256;

/** A filter in the index's terms: null matches any; an empty set matches nothing. */
export type IndexFilter = { addresses: ReadonlySet<string> | null; topic0s: ReadonlySet<string> | null };

export class EmitterIndex {
  private readonly addressIds = new Map<string, number>();
  private readonly topicIds = new Map<string, number>();
  private blocks = new Int32Array(1024);
  /** starts[i]..starts[i + 1] are the keys of blocks[i]; starts has one entry more than blocks. */
  private starts = new Int32Array(1025);
  private keys = new Int32Array(16384);
  private count = 0;

  get size() {
    return this.count;
  }

  private id(map: Map<string, number>, value: string): number {
    let id = map.get(value);
    if (id === undefined) map.set(value, (id = map.size));
    return id;
  }

  /** Records block `n`'s logs as (emitter, topic0) keys, each once; `n` is above every block recorded. */
  record(n: number, logs: Iterable<{ address: string; topic0: string | undefined }>): void {
    if (this.count > 0 && this.blocks[this.count - 1]! >= n) throw new Error(`emitter index: block ${n} recorded out of order`);
    const seen = new Set<number>();
    for (const log of logs) {
      const topic = log.topic0 === undefined ? 0 : this.id(this.topicIds, log.topic0) + 1;
      if (topic >= TOPICS_PER_ADDRESS) throw new Error('emitter index: too many distinct topic0s');
      seen.add(this.id(this.addressIds, log.address) * TOPICS_PER_ADDRESS + topic);
    }
    if (this.count + 1 >= this.blocks.length) {
      this.blocks = grow(this.blocks, this.blocks.length * 2);
      this.starts = grow(this.starts, this.blocks.length + 1);
    }
    const start = this.starts[this.count]!;
    if (start + seen.size > this.keys.length) this.keys = grow(this.keys, Math.max(this.keys.length * 2, start + seen.size));
    let k = start;
    for (const key of seen) this.keys[k++] = key;
    this.blocks[this.count] = n;
    this.starts[++this.count] = k;
  }

  /** Forgets every block from `n` on. */
  truncateFrom(n: number): void {
    this.count = this.lowerBound(n);
  }

  /** The recorded blocks in [from, to] holding a log the filter can match, ascending. */
  *candidates(from: number, to: number, filter: IndexFilter): Generator<number> {
    const addresses = filter.addresses && idSet(this.addressIds, filter.addresses);
    const topics = filter.topic0s && idSet(this.topicIds, filter.topic0s);
    if ((addresses && addresses.size === 0) || (topics && topics.size === 0)) return;
    for (let i = this.lowerBound(from); i < this.count && this.blocks[i]! <= to; i++) {
      for (let k = this.starts[i]!; k < this.starts[i + 1]!; k++) {
        const key = this.keys[k]!;
        const topic = key % TOPICS_PER_ADDRESS;
        // A log with no topics matches only a filter that names no topic0.
        if (topics && (topic === 0 || !topics.has(topic - 1))) continue;
        if (addresses && !addresses.has(Math.floor(key / TOPICS_PER_ADDRESS))) continue;
        yield this.blocks[i]!;
        break;
      }
    }
  }

  private lowerBound(n: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.blocks[mid]! < n) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function idSet(ids: ReadonlyMap<string, number>, values: ReadonlySet<string>): Set<number> {
  const out = new Set<number>();
  for (const v of values) {
    const id = ids.get(v);
    if (id !== undefined) out.add(id);
  }
  return out;
}

function grow(a: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}
