// Families whose pools keep two reserves announced by Sync: constant product (x·y = k) or a stable
// invariant on decimal-normalised reserves (common unit 10^(d0+d1): x = r0·10^d1, y = r1·10^d0).
import { id } from 'ethers';
import type { RawLog } from '../../chain/index.ts';
import type { PoolState, StoredPool } from '../../db/indexer/index.ts';
import { TOPICS, decodeV2Swap } from './events.ts';
import { curveBandDepth, type InvariantCurve } from '../math/invariantCurve.ts';
import { BAND, isqrt, type Ratio } from '../math/ratio.ts';
import { pow10 } from '../math/fixed.ts';
import { emptyState, type BandDepth, type PoolFamily, type StateRead } from './PoolFamily.ts';

export type StableMath = {
  price(x: bigint, y: bigint): Ratio;
  curve(x: bigint, y: bigint): InvariantCurve;
};

// (√1.02 − 1/√1.02) = 0.02/√1.02: the share of each reserve a constant-product pool trades in the band.
const BAND_SHARE_NUM = (BAND.num - BAND.den) * 10n ** 34n;
const BAND_SHARE_DEN = isqrt(BAND.num * BAND.den * 10n ** 68n);

export function reservesOf(pool: StoredPool): { r0: bigint; r1: bigint } | null {
  const { reserve0: r0, reserve1: r1 } = pool.state;
  return r0 === null || r1 === null ? null : { r0, r1 };
}

export function withReserves(state: PoolState, reserve0: bigint, reserve1: bigint): PoolState {
  return { ...state, reserve0, reserve1 };
}

const GET_RESERVES = id('getReserves()').slice(0, 10);

/** getReserves(): both reserves in its first two words (uint112 or uint256); none before the first deposit (as before the first Sync). */
export const reserveStateRead: StateRead = {
  calls: (pool) => [{ to: pool.address, data: GET_RESERVES }],
  decode(_pool, [answer]) {
    if (!answer || answer.length < 130) return null;
    const reserve0 = BigInt('0x' + answer.slice(2, 66));
    const reserve1 = BigInt('0x' + answer.slice(66, 130));
    return reserve0 === 0n && reserve1 === 0n ? null : withReserves(emptyState(), reserve0, reserve1);
  },
};

/**
 * The pool events of a reserve family: the Uniswap V2 Swap and a Sync (its uint112 or uint256
 * form, by topic) that announces both reserves.
 */
export function reserveEvents(syncTopic: string, decodeSync: (log: RawLog) => { reserve0: bigint; reserve1: bigint }): Pick<PoolFamily, 'poolTopics' | 'applyLog' | 'readState'> {
  return {
    readState: reserveStateRead,
    poolTopics: [TOPICS.v2Swap, syncTopic],
    applyLog(pool, log) {
      if (log.topics[0] === syncTopic) {
        const { reserve0, reserve1 } = decodeSync(log);
        return { state: withReserves(pool.state, reserve0, reserve1) };
      }
      if (log.topics[0] === TOPICS.v2Swap) return { swap: decodeV2Swap(log) };
      return null;
    },
  };
}

type ReserveMath = Pick<PoolFamily, 'spotPrice' | 'bandDepth' | 'balances'>;

/** Price, band depth and balances of a reserve pool; `stable` decides per pool which invariant applies. */
export function reserveMath(stable: (pool: StoredPool) => StableMath | null): ReserveMath {
  return {
    spotPrice(pool, d0, d1) {
      const r = reservesOf(pool);
      if (!r || r.r0 === 0n || r.r1 === 0n) return null;
      const math = stable(pool);
      if (!math) return { num: r.r1, den: r.r0 };
      // The normalised price is per whole unit; back to base units: × 10^d1 / 10^d0.
      const p = math.price(r.r0 * pow10(d1), r.r1 * pow10(d0));
      return { num: p.num * pow10(d1), den: p.den * pow10(d0) };
    },
    bandDepth(pool, d0, d1): BandDepth | null {
      const r = reservesOf(pool);
      if (!r) return null;
      const math = stable(pool);
      if (!math) return { amount0: (r.r0 * BAND_SHARE_NUM) / BAND_SHARE_DEN, amount1: (r.r1 * BAND_SHARE_NUM) / BAND_SHARE_DEN };
      const x = r.r0 * pow10(d1);
      const y = r.r1 * pow10(d0);
      const { dx, dy } = curveBandDepth(math.curve(x, y), x, y);
      return { amount0: dx / pow10(d1), amount1: dy / pow10(d0) };
    },
    balances(pool) {
      const r = reservesOf(pool);
      return r ? { amount0: r.r0, amount1: r.r1 } : null;
    },
  };
}
