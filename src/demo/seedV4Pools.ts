// Creates and funds the demo's Uniswap V4 pools in its PoolManager: each is initialised at the
// reference price and given one full-range position. A native pool trades ETH itself (currency
// address(0)); a hooked pool's key names the demo hook and a dynamic fee.
import { AbiCoder, keccak256, ZeroAddress } from 'ethers';
import type { DemoClient } from './client.ts';
import type { DemoPoolInfo, V4PoolKey } from './deploy.ts';
import { poolAmounts } from './deploy.ts';
import { POOLS } from './demoNetwork.ts';
import type { FamilyFactories } from './seedFamilyPools.ts';
import { isqrt, sortTokens } from './units.ts';

const MAX_UINT = 2n ** 256n - 1n;
const FULL_RANGE = [-887220, 887220] as const;
/** LPFeeLibrary.DYNAMIC_FEE_FLAG: the hook sets each swap's fee. */
const DYNAMIC_FEE = 0x800000;
const TICK_SPACING: Record<number, number> = { 500: 10, 3000: 60 };

/** A V4 pool's id: keccak256 of its ABI-encoded key, as the PoolManager names it. */
export function v4PoolId(key: V4PoolKey): string {
  return keccak256(AbiCoder.defaultAbiCoder().encode(['tuple(address,address,uint24,int24,address)'], [[key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]])).toLowerCase();
}

export async function seedV4Pools(c: DemoClient, lp: string, tok: (s: string) => string, f: FamilyFactories): Promise<DemoPoolInfo[]> {
  const manager = f.uniswapV4;
  const pools: DemoPoolInfo[] = [];
  const approved = new Set<string>();
  for (const p of POOLS.filter((x) => x.protocol === 'uniswap-v4')) {
    const base = tok(p.base);
    const quote = tok(p.quote);
    // The native currency is always currency0 (address(0) sorts first); it stands for WETH in prices.
    const [token0, token1] = p.native ? [base, quote] : sortTokens(base, quote);
    const key: V4PoolKey = {
      currency0: p.native ? ZeroAddress : token0, currency1: token1,
      fee: p.hooked ? DYNAMIC_FEE : p.fee, tickSpacing: TICK_SPACING[p.fee] ?? 60, hooks: p.hooked ? f.v4Hook : ZeroAddress,
    };
    const [amountBase, amountQuote] = poolAmounts(p);
    const [amount0, amount1] = token0 === base ? [amountBase, amountQuote] : [amountQuote, amountBase];
    const keyArg = [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks];
    await c.send(lp, manager, 'DemoPoolManager', 'initialize', [keyArg, isqrt((amount1 << 192n) / amount0)], { gas: 300_000n });
    for (const t of [key.currency0, key.currency1]) {
      if (t === ZeroAddress || approved.has(t)) continue;
      approved.add(t);
      await c.send(lp, t, 'DemoToken', 'approve', [manager, MAX_UINT], { gas: 80_000n });
    }
    // A native deposit sends a little more than the position takes; the manager returns the rest.
    await c.send(lp, manager, 'DemoPoolManager', 'modifyLiquidity', [keyArg, FULL_RANGE[0], FULL_RANGE[1], (isqrt(amount0 * amount1) * 999n) / 1000n, `0x${'00'.repeat(32)}`], {
      gas: 400_000n, ...(p.native ? { value: amount0 + amount0 / 100n } : {}),
    });
    pools.push({
      address: v4PoolId(key), protocol: 'uniswap-v4', stable: false, factory: manager, spender: manager, token0, token1, base, quote,
      symbol: `${p.native ? 'ETH' : p.base}/${p.quote}`, fee: p.hooked ? 3000 : p.fee, tickSpacing: key.tickSpacing, role: p.role,
      v4: { key, native0: p.native ?? false },
    });
  }
  await c.mine();
  return pools;
}
