// Creates and funds the pools of the DEX families beyond Uniswap V2/V3 (Solidly, SyncSwap,
// PancakeSwap V3, Algebra) and the far one-tick Uniswap V3 position: creations are mined first and
// the addresses read from the factories, then liquidity is added at the reference prices.
import type { DemoClient } from './client.ts';
import type { ContractName } from '../chain/contracts.ts';
import type { DemoPoolInfo } from './deploy.ts';
import { poolAmounts } from './deploy.ts';
import { POOLS, tokenSpec, type PoolSpec } from './demoNetwork.ts';
import { isqrt, sortTokens, toUnits } from './units.ts';

export type FamilyFactories = {
  solidly: string; pancakeV3: string; algebra: string; syncSwapClassic: string; syncSwapStable: string;
  /** Uniswap V4's PoolManager, and the hooks contract of its hooked pool. */
  uniswapV4: string; v4Hook: string;
};

const MAX_UINT = 2n ** 256n - 1n;
const Q96 = 2n ** 96n;
const FULL_RANGE = [-887220, 887220] as const;

/** The contract of a concentrated pool per protocol (the swap and mint calls are the same). */
export const CONCENTRATED_POOL: Partial<Record<PoolSpec['protocol'], ContractName>> = {
  'uniswap-v3': 'DemoV3Pool', 'pancake-v3': 'DemoPancakeV3Pool', algebra: 'DemoAlgebraPool',
};

export async function seedFamilyPools(
  c: DemoClient, lp: string, tok: (s: string) => string, f: FamilyFactories, v3Factory: string,
): Promise<DemoPoolInfo[]> {
  const specs = POOLS.filter((p) => p.far || (p.protocol !== 'uniswap-v2' && p.protocol !== 'uniswap-v3' && p.protocol !== 'uniswap-v4'));
  const factoryOf = (p: PoolSpec) =>
    p.protocol === 'solidly' ? f.solidly : p.protocol === 'pancake-v3' ? f.pancakeV3 : p.protocol === 'algebra' ? f.algebra
      : p.protocol === 'syncswap' ? (p.stable ? f.syncSwapStable : f.syncSwapClassic) : v3Factory;
  for (const p of specs) {
    const [a, b] = [tok(p.base), tok(p.quote)];
    if (p.protocol === 'solidly') await c.send(lp, f.solidly, 'DemoSolidlyFactory', 'createPair', [a, b, p.stable ?? false], { gas: 3_000_000n });
    else if (p.protocol === 'syncswap') await c.send(lp, factoryOf(p), 'DemoSyncSwapFactory', 'createPool', [a, b], { gas: 3_000_000n });
    else if (p.protocol === 'algebra') await c.send(lp, f.algebra, 'DemoAlgebraFactory', 'createPool', [a, b], { gas: 4_000_000n });
    else if (p.protocol === 'pancake-v3') await c.send(lp, f.pancakeV3, 'DemoPancakeV3Factory', 'createPool', [a, b, p.fee], { gas: 4_000_000n });
    else await c.send(lp, v3Factory, 'DemoV3Factory', 'createPool', [a, b, p.fee], { gas: 4_000_000n });
  }
  await c.mine();

  const pools: DemoPoolInfo[] = [];
  for (const p of specs) {
    const base = tok(p.base);
    const quote = tok(p.quote);
    const [token0, token1] = sortTokens(base, quote);
    const factory = factoryOf(p);
    const [address] =
      p.protocol === 'solidly' ? await c.call(factory, 'DemoSolidlyFactory', 'getPair', [token0, token1, p.stable ?? false])
        : p.protocol === 'syncswap' ? await c.call(factory, 'DemoSyncSwapFactory', 'getPool', [token0, token1])
          : p.protocol === 'algebra' ? await c.call(factory, 'DemoAlgebraFactory', 'poolByPair', [token0, token1])
            : p.protocol === 'pancake-v3' ? await c.call(factory, 'DemoPancakeV3Factory', 'getPool', [token0, token1, p.fee])
              : await c.call(factory, 'DemoV3Factory', 'getPool', [token0, token1, p.fee]);
    const pool = address as string;
    const contract = CONCENTRATED_POOL[p.protocol];
    if (p.far && contract) await seedFarPosition(c, lp, p, pool, token0, base, quote);
    else if (contract) {
      const [amountBase, amountQuote] = poolAmounts(p);
      const [amount0, amount1] = token0 === base ? [amountBase, amountQuote] : [amountQuote, amountBase];
      await c.send(lp, pool, contract, 'initialize', [isqrt((amount1 << 192n) / amount0)], { gas: 200_000n });
      for (const t of [base, quote]) await c.send(lp, t, 'DemoToken', 'approve', [pool, MAX_UINT], { gas: 80_000n });
      await c.send(lp, pool, contract, 'mint', [lp, FULL_RANGE[0], FULL_RANGE[1], (isqrt(amount0 * amount1) * 999n) / 1000n, '0x'], { gas: 300_000n });
    } else {
      const [amountBase, amountQuote] = poolAmounts(p);
      await c.send(lp, base, 'DemoToken', 'transfer', [pool, amountBase], { gas: 80_000n });
      await c.send(lp, quote, 'DemoToken', 'transfer', [pool, amountQuote], { gas: 80_000n });
      await c.send(lp, pool, 'DemoReservePool', 'mint', [lp], { gas: 200_000n });
    }
    pools.push({
      address: pool, protocol: p.protocol, stable: p.stable ?? false, factory, spender: pool, token0, token1, base, quote,
      symbol: `${p.base}/${p.quote}`, fee: p.fee, tickSpacing: contract ? (p.protocol === 'algebra' ? 60 : p.fee === 2500 ? 50 : 60) : null, role: p.role,
    });
  }
  await c.mine();
  return pools;
}

// One tick spacing around `priceFactor` × the reference price, holding about `usd` of the quote token.
async function seedFarPosition(c: DemoClient, lp: string, p: PoolSpec, pool: string, token0: string, base: string, quote: string) {
  const far = p.far!;
  const b = tokenSpec(p.base);
  const q = tokenSpec(p.quote);
  const baseIs0 = token0 === base;
  // token1 base units per token0 base unit
  const quotePerBase = (b.priceUsd * far.priceFactor) / q.priceUsd * 10 ** (q.decimals - b.decimals);
  const price = baseIs0 ? quotePerBase : 1 / quotePerBase;
  const spacing = 60;
  const lower = Math.floor(Math.log(price) / Math.log(1.0001) / spacing) * spacing;
  const [[sqrtLower], [sqrtUpper]] = [await c.call(pool, 'DemoV3Pool', 'sqrtPriceAtTick', [lower]), await c.call(pool, 'DemoV3Pool', 'sqrtPriceAtTick', [lower + spacing])];
  const a = sqrtLower as bigint;
  const u = sqrtUpper as bigint;
  const sqrtP = (a + u) / 2n;
  const quoteAmount = toUnits(far.usd / q.priceUsd, q.decimals);
  // quote is token1: amount1 = L(√P − √a); quote is token0: amount0 = L(1/√P − 1/√u)
  const liquidity = baseIs0 ? (quoteAmount * Q96) / (sqrtP - a) : (quoteAmount * sqrtP * u) / (Q96 * (u - sqrtP));
  await c.send(lp, pool, 'DemoV3Pool', 'initialize', [sqrtP], { gas: 200_000n });
  for (const t of [base, quote]) await c.send(lp, t, 'DemoToken', 'approve', [pool, MAX_UINT], { gas: 80_000n });
  await c.send(lp, pool, 'DemoV3Pool', 'mint', [lp, lower, lower + spacing, liquidity, '0x'], { gas: 300_000n });
}
