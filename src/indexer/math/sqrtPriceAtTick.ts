// √(1.0001^tick) as a Q64.96 number, by square-and-multiply in 2^-256 fixed point (memoised):
// the bounds of concentrated-liquidity positions, accurate to far better than a tick.
import { isqrt } from './ratio.ts';

const ONE = 1n << 256n;
const BASE = (10001n * ONE) / 10000n;
const cache = new Map<number, bigint>();

export function sqrtPriceAtTick(tick: number): bigint {
  let hit = cache.get(tick);
  if (hit !== undefined) return hit;
  let result = ONE;
  let square = BASE;
  for (let n = Math.abs(tick); n > 0; n >>= 1) {
    if (n & 1) result = (result * square) >> 256n;
    square = (square * square) >> 256n;
  }
  const price = tick < 0 ? (ONE * ONE) / result : result; // 1.0001^tick, scaled by 2^256
  hit = isqrt(price >> 64n); // √(price·2^192) = √price·2^96
  cache.set(tick, hit);
  return hit;
}
