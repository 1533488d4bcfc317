// Deterministic randomness: a 32-bit integer hash of any number of integers (murmur3's finaliser
// per word), and a small fast generator (mulberry32) seeded from it. Every random choice of the
// simulated chain is drawn from a generator seeded by (seed, block, branch), never from Math.random.

export function hash32(...words: number[]): number {
  let h = 0x9e3779b9;
  for (const w of words) {
    h = Math.imul(h ^ (w >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    h = (h + 0x7f4a7c15) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** `chars` hex characters: hash32(words…), then an xorshift stream from it (one hash per string). */
export function hashHex(chars: number, ...words: number[]): string {
  let h = hash32(...words) || 1;
  let out = '';
  while (out.length < chars) {
    out += (h >>> 0).toString(16).padStart(8, '0');
    h ^= h << 13;
    h ^= h >>> 17;
    h ^= h << 5;
  }
  return out.slice(0, chars);
}

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Poisson-distributed count with mean `lambda` (Knuth's method; lambda stays small here). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k++;
      p *= this.next();
    }
    return k;
  }
  /** A ppm-resolution fraction of `amount`: amount · ⌊u·1e6⌋ / 1e6 for a u drawn log-uniform in [lo, hi]. */
  fractionOf(amount: bigint, lo: number, hi: number): bigint {
    const u = lo * Math.pow(hi / lo, this.next());
    return (amount * BigInt(Math.max(1, Math.floor(u * 1e9)))) / 1_000_000_000n;
  }
}
