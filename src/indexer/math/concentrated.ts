// Concentrated liquidity (Uniswap V3 and forks, Algebra): what the positions hold, walked tick by
// tick from the current √price. liquidityNet[t] is the liquidity added when the price crosses tick t
// upwards. Without known positions the active liquidity is taken to extend without bound. A tick is
// crossed (its liquidity in the active one) when it is at or below the pool's tick, when the tick is
// known: at a tick's exact √ratio reached going down, the pool's tick is the one below and that
// tick is not crossed; without the tick, when its √ratio is at or below the √price.
import { BAND, Q96, isqrt, type BandDepth } from './ratio.ts';
import { sqrtPriceAtTick } from './sqrtPriceAtTick.ts';

type Segment = { from: bigint; to: bigint; liquidity: bigint };

/** Token amounts of liquidity between √prices a < b (token0 rounds down, token1 down). */
function amounts(liquidity: bigint, a: bigint, b: bigint): BandDepth {
  if (liquidity <= 0n || b <= a) return { amount0: 0n, amount1: 0n };
  return { amount0: (liquidity * Q96 * (b - a)) / (a * b), amount1: (liquidity * (b - a)) / Q96 };
}

/** Liquidity segments from √price `sqrtP` up to `limitUp` and down to `limitDown` (null: the last tick). */
function segments(sqrtP: bigint, active: bigint, net: ReadonlyMap<number, bigint>, limitDown: bigint | null, limitUp: bigint | null, tick: number | null): Segment[] {
  const above = (t: number, edge: bigint) => (tick !== null ? t > tick : edge > sqrtP);
  const ticks = [...net.keys()].sort((x, y) => x - y);
  const out: Segment[] = [];
  if (ticks.length === 0) {
    if (limitUp !== null) out.push({ from: sqrtP, to: limitUp, liquidity: active });
    if (limitDown !== null) out.push({ from: limitDown, to: sqrtP, liquidity: active });
    return out;
  }
  let liquidity = active;
  let at = sqrtP;
  for (const t of ticks) {
    const edge = sqrtPriceAtTick(t);
    if (!above(t, edge)) continue;
    if (limitUp !== null && edge >= limitUp) break;
    const to = edge < at ? at : edge; // a tick out of step with the √price must not make a segment run backwards
    out.push({ from: at, to, liquidity });
    liquidity += net.get(t) ?? 0n;
    at = to;
  }
  if (limitUp !== null) out.push({ from: at, to: limitUp, liquidity });
  liquidity = active;
  at = sqrtP;
  for (const t of ticks.reverse()) {
    const edge = sqrtPriceAtTick(t);
    if (above(t, edge)) continue;
    if (limitDown !== null && edge <= limitDown) break;
    const from = edge > at ? at : edge;
    out.push({ from, to: at, liquidity });
    liquidity -= net.get(t) ?? 0n;
    at = from;
  }
  if (limitDown !== null) out.push({ from: limitDown, to: at, liquidity });
  return out;
}

function sum(parts: Segment[]): BandDepth {
  const total = { amount0: 0n, amount1: 0n };
  for (const s of parts) {
    const a = amounts(s.liquidity, s.from, s.to);
    total.amount0 += a.amount0;
    total.amount1 += a.amount1;
  }
  return total;
}

/** What the pool trades between spot/1.02 and spot×1.02, crossing the ticks of its positions. */
export function concentratedBandDepth(sqrtP: bigint, active: bigint, net: ReadonlyMap<number, bigint>, tick: number | null = null): BandDepth {
  const up = isqrt((sqrtP * sqrtP * BAND.num) / BAND.den);
  const down = isqrt((sqrtP * sqrtP * BAND.den) / BAND.num);
  return sum(segments(sqrtP, active, net, down, up, tick));
}

/**
 * What the positions hold at the current price: token0 in the ranges above it, token1 in those below.
 * Without known positions, the active liquidity's virtual reserves.
 */
export function concentratedBalances(sqrtP: bigint, active: bigint, net: ReadonlyMap<number, bigint>, tick: number | null = null): BandDepth {
  if (net.size === 0) return { amount0: (active * Q96) / sqrtP, amount1: (active * sqrtP) / Q96 };
  const parts = segments(sqrtP, active, net, null, null, tick);
  return {
    amount0: sum(parts.filter((s) => s.from >= sqrtP)).amount0,
    amount1: sum(parts.filter((s) => s.to <= sqrtP)).amount1,
  };
}
