// The first block at or after a given second, found by search over block headers: interpolation on
// block number against time between the nearest headers already known (a cache shared across
// history ranges), falling back to bisection after any step that did not halve the bracket, so it
// always ends (at most ~2·log2 of the bracket's blocks). Block times never decrease with the block
// number (consensus rule), which is all the search relies on; equal timestamps and gaps are fine.
import type { ChainClient } from '../chain/index.ts';
import { fetchHeaders } from './fetchHeaders.ts';

/** Known block times (unix seconds) sorted by block; each header read through it is counted. */
export class HeaderTimes {
  private blocks: number[] = [];
  private readonly seconds = new Map<number, number>();
  headersRead = 0;

  constructor(private readonly chain: ChainClient, known: Iterable<readonly [number, number]> = []) {
    for (const [n, s] of [...known].sort((x, y) => x[0] - y[0])) {
      if (this.seconds.has(n)) continue;
      this.seconds.set(n, s);
      this.blocks.push(n);
    }
  }

  add(block: number, seconds: number): void {
    if (this.seconds.has(block)) return;
    this.seconds.set(block, seconds);
    this.blocks.splice(this.indexAbove(block), 0, block);
  }

  get(block: number): number | undefined {
    return this.seconds.get(block);
  }

  entries(): [number, number][] {
    return this.blocks.map((n) => [n, this.seconds.get(n)!]);
  }

  /** The time of `block`, reading its header (with the others asked for, in one batch) when unknown. */
  async read(...blocks: number[]): Promise<number> {
    const missing = blocks.filter((n) => !this.seconds.has(n));
    if (missing.length > 0) {
      const headers = await fetchHeaders(this.chain, missing);
      this.headersRead += headers.size;
      for (const [n, h] of headers) this.add(n, h.timestamp);
    }
    return this.seconds.get(blocks[0]!)!;
  }

  /** Index of the first known block above `block`. */
  private indexAbove(block: number): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.blocks[mid]! <= block) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The nearest known blocks in [min, max] before `target` (time < target) and at or after it. */
  bracket(target: number, min: number, max: number): { below: number | null; atOrAfter: number | null } {
    let below: number | null = null;
    let atOrAfter: number | null = null;
    // Times are non-decreasing in block number: the known blocks split at one index.
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.seconds.get(this.blocks[mid]!)! < target) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0; i--) if (this.blocks[i]! >= min && this.blocks[i]! <= max) { below = this.blocks[i]!; break; }
    for (let i = lo; i < this.blocks.length; i++) if (this.blocks[i]! >= min && this.blocks[i]! <= max) { atOrAfter = this.blocks[i]!; break; }
    return { below, atOrAfter };
  }
}

/**
 * The first block in [min, max] whose time is at or after `target` (unix seconds): null when even
 * `max` is earlier; `min` when `min` already is. At least one block of [min, max] must be known.
 * Both the block found and the one before it (unless it is `min`) are read, so the bucket each block
 * is in is known exactly.
 */
export async function findFirstBlockAt(times: HeaderTimes, target: number, min: number, max: number): Promise<number | null> {
  let { below, atOrAfter } = times.bracket(target, min, max);
  if (below === null && atOrAfter === null) throw new Error(`findFirstBlockAt: no known block in [${min}, ${max}]`);
  const pace = secondsPerBlock(times, min, max);
  // Gallop outwards from the known side until the target is bracketed (or the bound is reached).
  if (below === null) {
    let step = Math.max(1, Math.ceil((times.get(atOrAfter!)! - target) / pace) + 1);
    while (below === null) {
      if (atOrAfter === min) return min;
      const probe = Math.max(min, atOrAfter! - step);
      if ((await times.read(probe)) < target) below = probe;
      else atOrAfter = probe;
      step *= 2;
    }
  }
  if (atOrAfter === null) {
    let step = Math.max(1, Math.ceil((target - times.get(below)!) / pace));
    while (atOrAfter === null) {
      if (below === max) return null;
      const probe = Math.min(max, below + step);
      if ((await times.read(probe)) >= target) atOrAfter = probe;
      else below = probe;
      step *= 2;
    }
  }
  // Invariant: time(below) < target <= time(atOrAfter), below < atOrAfter.
  // An interpolated guess is pushed a little further each time the bracket closed from the same
  // side (block times are noisy: the guess tends to fall short on one side again).
  let bisect = false;
  let lastSide = 0;
  let push = 0;
  while (atOrAfter - below > 1) {
    const width = atOrAfter - below;
    let probe: number;
    if (bisect) probe = below + Math.floor(width / 2);
    else {
      const tb = times.get(below)!;
      const ta = times.get(atOrAfter)!;
      probe = below + Math.ceil(((target - tb) / (ta - tb)) * width) + lastSide * push;
      probe = Math.min(atOrAfter - 1, Math.max(below + 1, probe));
    }
    const side = (await times.read(probe)) >= target ? -1 : 1;
    if (side < 0) atOrAfter = probe;
    else below = probe;
    push = side === lastSide ? Math.max(1, push * 2) : 0;
    lastSide = side;
    bisect = !bisect && atOrAfter - below > width / 2;
  }
  return atOrAfter;
}

/** Average seconds per block over the known blocks of [min, max] (2 when they tell nothing). */
function secondsPerBlock(times: HeaderTimes, min: number, max: number): number {
  const inside = times.entries().filter(([n]) => n >= min && n <= max);
  if (inside.length < 2) return 2;
  const [n0, t0] = inside[0]!;
  const [n1, t1] = inside[inside.length - 1]!;
  return t1 > t0 ? (t1 - t0) / (n1 - n0) : 2;
}
