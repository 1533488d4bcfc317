// The simulated chain: the world, block times, branches (a reorganisation starts a new branch from
// a height), the state history built once at start by generating every block in order, and blocks
// regenerated on request (a small cache keeps the latest ones).
import { generateBlock, type GeneratedBlock, type SimTx } from './blockGen.ts';
import { EmitterIndex } from './emitterIndex.ts';
import { History } from './history.ts';
import { hash32, hashHex } from './prng.ts';
import { profileNamed, type Profile } from './profiles.ts';
import { createWorld, type World } from './world.ts';

export type Block = {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  txs: SimTx[];
  txHashes: string[];
};

const CHUNK = 1024;
const CACHE_BLOCKS = 8192;

export type ChainOptions = { seed?: number; profile: string | Profile; overrides?: Partial<Profile> };

export class SimChain {
  readonly world: World;
  readonly history = new History();
  /** Every swap of the chain as [block, pool] (the truth's 24 h counts). */
  readonly swapLog: { blocks: number[]; pools: number[] } = { blocks: [], pools: [] };
  /** The (emitter, topic0) pairs of every built block: filtered log requests skip the rest. */
  readonly emitters = new EmitterIndex();
  head: number;
  private readonly branches: { from: number; branch: number }[] = [{ from: 0, branch: 0 }];
  private readonly chunkTimes: number[] = [];
  private timeMemo = { n: -1, t: 0 };
  private readonly cache = new Map<number, Block>();
  readonly buildMs: number;

  constructor(options: ChainOptions) {
    const profile = typeof options.profile === 'string' ? profileNamed(options.profile, options.overrides) : { ...options.profile, ...options.overrides };
    const started = performance.now();
    this.world = createWorld(options.seed ?? 1, profile);
    this.head = -1;
    this.extendTimes(this.world.head);
    this.build(0, this.world.head);
    this.buildMs = performance.now() - started;
  }

  get seed() {
    return this.world.seed;
  }

  // Block times: 1–4 s between blocks, now and then a gap of 20–120 s.
  private gap(n: number): number {
    const h = hash32(this.world.seed, n, 0x71e);
    if (h % 1000 === 0) return 20 + ((h >>> 10) % 100);
    const r = (h >>> 12) % 100;
    return r < 25 ? 1 : r < 70 ? 2 : r < 90 ? 3 : 4;
  }

  private extendTimes(upTo: number) {
    if (this.chunkTimes.length === 0) this.chunkTimes.push(this.world.profile.genesisTime);
    while ((this.chunkTimes.length - 1) * CHUNK < upTo + CHUNK) {
      const c = this.chunkTimes.length - 1;
      let t = this.chunkTimes[c]!;
      for (let k = c * CHUNK + 1; k <= (c + 1) * CHUNK; k++) t += this.gap(k);
      this.chunkTimes.push(t);
    }
  }

  timestamp(n: number): number {
    if (n === this.timeMemo.n) return this.timeMemo.t;
    let t: number;
    if (n === this.timeMemo.n + 1) t = this.timeMemo.t + this.gap(n);
    else {
      const c = Math.floor(n / CHUNK);
      t = this.chunkTimes[c]!;
      for (let k = c * CHUNK + 1; k <= n; k++) t += this.gap(k);
    }
    this.timeMemo = { n, t };
    return t;
  }

  branchOf(n: number): number {
    for (let i = this.branches.length - 1; i >= 0; i--) if (this.branches[i]!.from <= n) return this.branches[i]!.branch;
    return 0;
  }

  /** Block hashes carry the number in their last 6 bytes (so a hash finds its block). */
  hashOf(n: number): string {
    if (n < 0) return '0x' + '0'.repeat(64);
    return '0x' + hashHex(52, this.world.seed, n, this.branchOf(n), 0xb10c) + n.toString(16).padStart(12, '0');
  }

  /** Transaction hashes carry the block number and their index. */
  txHash(n: number, index: number, blockPart = hashHex(36, this.world.seed, n, this.branchOf(n), 0x7a)): string {
    return '0x' + blockPart + hash32(this.world.seed, n, index).toString(16).padStart(8, '0') + n.toString(16).padStart(12, '0') + index.toString(16).padStart(8, '0');
  }

  static numberOfHash(hash: string): number {
    return parseInt(hash.slice(54, 66), 16);
  }

  static locateTx(hash: string): { block: number; index: number } {
    return { block: parseInt(hash.slice(46, 58), 16), index: parseInt(hash.slice(58, 66), 16) };
  }

  private generate(n: number): GeneratedBlock {
    return generateBlock(this.world, this.history, n, this.branchOf(n), this.timestamp(n));
  }

  /** Generates blocks [from, to] in order, recording their state changes (before trading, only blocks with an event). */
  private build(from: number, to: number) {
    for (const n of this.eventBlocksBeforeTrading()) if (n >= from && n <= to) this.buildBlock(n);
    for (let n = Math.max(from, this.world.tradingFrom); n <= to; n++) this.buildBlock(n);
    this.head = Math.max(this.head, to);
  }

  private buildBlock(n: number) {
    const block = this.generate(n);
    for (const [key, value] of block.writes) this.history.set(key, n, value);
    this.emitters.record(n, emittersOf(block.txs));
    for (const pool of block.swaps) {
      this.swapLog.blocks.push(n);
      this.swapLog.pools.push(pool);
    }
  }

  /** Block `n` of the current branch; null above the head. */
  block(n: number): Block | null {
    if (n < 0 || n > this.head) return null;
    const hit = this.cache.get(n);
    if (hit) return hit;
    const { txs } = this.generate(n);
    const part = hashHex(36, this.world.seed, n, this.branchOf(n), 0x7a);
    const block: Block = {
      number: n, hash: this.hashOf(n), parentHash: this.hashOf(n - 1), timestamp: this.timestamp(n), txs,
      txHashes: txs.map((_, i) => this.txHash(n, i, part)),
    };
    if (this.cache.size >= CACHE_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(n, block);
    return block;
  }

  /** How many generated blocks are kept (each was generated since the last clearCache). */
  cachedBlocks(): number {
    return this.cache.size;
  }

  /** Forgets the generated blocks kept (a cold start for measurements). */
  clearCache() {
    this.cache.clear();
  }

  private eventBlocks: number[] | null = null;

  /** Every block before trading with an event (token mints, pool creations, feed rounds), ascending. */
  private eventBlocksBeforeTrading(): number[] {
    if (this.eventBlocks) return this.eventBlocks;
    const w = this.world;
    const blocks = new Set<number>([...w.tokensAt.keys(), ...w.poolsAt.keys()]);
    for (let n = w.profile.feedEveryBefore; n < w.tradingFrom; n += w.profile.feedEveryBefore) blocks.add(n);
    return (this.eventBlocks = [...blocks].filter((n) => n < w.tradingFrom).sort((a, b) => a - b));
  }

  /** Adds `count` blocks of trading at the head. */
  mine(count: number) {
    this.extendTimes(this.head + count);
    this.build(this.head + 1, this.head + count);
  }

  /** Replaces the last `depth` blocks with a new branch of as many blocks (a reorganisation). */
  reorg(depth: number) {
    const from = this.head - depth + 1;
    if (depth < 1 || from < 1) throw new Error(`reorg depth ${depth} at head ${this.head}`);
    const head = this.head;
    this.history.truncateAbove(from - 1);
    this.emitters.truncateFrom(from);
    let keep = this.swapLog.blocks.length;
    while (keep > 0 && this.swapLog.blocks[keep - 1]! >= from) keep--;
    this.swapLog.blocks.length = keep;
    this.swapLog.pools.length = keep;
    this.branches.push({ from, branch: this.branches[this.branches.length - 1]!.branch + 1 });
    for (const n of [...this.cache.keys()]) if (n >= from) this.cache.delete(n);
    this.build(from, head);
  }
}

function* emittersOf(txs: readonly SimTx[]): Generator<{ address: string; topic0: string | undefined }> {
  for (const tx of txs) for (const log of tx.logs) yield { address: log.address, topic0: log.topic0 ?? log.topics[0] };
}
