// What the simulator's own model knows at the head, for checking an indexer against it: each
// pool's state and price (token1 per token0 in whole units), swaps per pool and per token in the
// 24 h of chain time ending at the head, and every pooled token's holders and top 10 balances.
import { balanceKey, balanceKeyParts, isBalanceKey, supplyKey, FEED_KEY, type FeedRound } from './blockGen.ts';
import { poolStateAt } from './calls.ts';
import type { SimChain } from './chain.ts';
import { concentratedPrice, curveStablePrice, reservePrice, solidlyStablePrice } from './math.ts';
import { isConcentrated, SYNCSWAP_ANN, type Pool } from './world.ts';

export type TruthPool = {
  address: string; family: string; token0: string; token1: string; stable: boolean; createdBlock: number;
  /** Uniswap V4 with native ETH as currency0: `token0` is then the wrapped native token it is priced as. */
  native0: boolean;
  /** Reserve pools: reserve0/reserve1; concentrated: sqrtPriceX96/liquidity (decimal strings, exact). */
  state: Record<string, string>;
  price: number | null;
  swaps24h: number;
};
export type TruthToken = {
  address: string; symbol: string; name: string; decimals: number; kind: string; totalSupply: string; swaps24h: number; holders: number;
  top10: { holder: string; balance: string }[];
};
export type Truth = {
  profile: string; seed: number; chainId: number; head: number; headTime: number;
  feed: { address: string; answer: string; decimals: number; updatedAt: number } | null;
  pools: TruthPool[];
  tokens: TruthToken[];
};

export function priceOf(chain: SimChain, pool: Pool, block: number): number | null {
  const s = poolStateAt(chain, pool, block);
  if (!s) return null;
  const d0 = chain.world.tokens[pool.token0]!.decimals;
  const d1 = chain.world.tokens[pool.token1]!.decimals;
  if (isConcentrated(pool.family)) return concentratedPrice(s.a, d0, d1);
  if (s.a === 0n || s.b === 0n) return null;
  if (!pool.stable) return reservePrice(s.a, s.b, d0, d1);
  return pool.family === 'syncswap-stable' ? curveStablePrice(s.a, s.b, d0, d1, Number(SYNCSWAP_ANN)) : solidlyStablePrice(s.a, s.b, d0, d1);
}

export function computeTruth(chain: SimChain): Truth {
  const w = chain.world;
  const head = chain.head;
  const headTime = chain.timestamp(head);
  const poolSwaps = new Map<number, number>();
  const { blocks, pools } = chain.swapLog;
  for (let i = blocks.length - 1; i >= 0 && chain.timestamp(blocks[i]!) > headTime - 86_400; i--) {
    poolSwaps.set(pools[i]!, (poolSwaps.get(pools[i]!) ?? 0) + 1);
  }
  const tokenSwaps = new Map<number, number>();
  const pooled = new Set<number>();
  const truthPools: TruthPool[] = w.pools.map((pool) => {
    const s = poolStateAt(chain, pool, head)!;
    const count = poolSwaps.get(pool.index) ?? 0;
    for (const t of [pool.token0, pool.token1]) {
      pooled.add(t);
      tokenSwaps.set(t, (tokenSwaps.get(t) ?? 0) + count);
    }
    return {
      address: pool.id, family: pool.family, token0: w.tokens[pool.token0]!.address, token1: w.tokens[pool.token1]!.address, stable: pool.stable,
      native0: pool.native0, createdBlock: pool.createdBlock,
      state: (isConcentrated(pool.family) ? { sqrtPriceX96: s.a.toString(), liquidity: s.b.toString() } : { reserve0: s.a.toString(), reserve1: s.b.toString() }) as Record<string, string>,
      price: priceOf(chain, pool, head), swaps24h: count,
    };
  });
  // Holders from every balance series' value at the head.
  const balances = new Map<number, { holder: string; balance: bigint }[]>();
  for (const key of chain.history.keys()) {
    if (!isBalanceKey(key)) continue;
    const { token: t, holder } = balanceKeyParts(key);
    const balance = chain.history.at<bigint>(key, head) ?? 0n;
    if (balance > 0n) {
      const list = balances.get(t) ?? [];
      list.push({ holder: w.holders[holder]!, balance });
      balances.set(t, list);
    }
  }
  const tokens: TruthToken[] = [...pooled].sort((a, b) => a - b).map((t) => {
    const token = w.tokens[t]!;
    const held = (balances.get(t) ?? []).sort((a, b) => (a.balance < b.balance ? 1 : a.balance > b.balance ? -1 : a.holder.localeCompare(b.holder)));
    return {
      address: token.address, symbol: token.symbol, name: token.name, decimals: token.decimals, kind: token.kind,
      totalSupply: String(chain.history.at<bigint>(supplyKey(t), head) ?? 0n), swaps24h: tokenSwaps.get(t) ?? 0, holders: held.length,
      top10: held.slice(0, 10).map((h) => ({ holder: h.holder, balance: h.balance.toString() })),
    };
  });
  const round = chain.history.at<FeedRound>(FEED_KEY, head);
  return {
    profile: w.profile.name, seed: w.seed, chainId: 59144, head, headTime,
    feed: round ? { address: w.addresses.feed, answer: round.answer.toString(), decimals: 8, updatedAt: round.updatedAt } : null,
    pools: truthPools, tokens,
  };
}

/** A balance at the head (for spot checks). */
export const balanceAt = (chain: SimChain, token: number, holder: string, block: number) => chain.history.at<bigint>(balanceKey(chain.world, token, holder), block) ?? 0n;
