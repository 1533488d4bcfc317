// What a batch reads by call beyond the logs: metadata of new tokens, the stable flag of new pools
// whose creation event lacks it, and the state of concentrated pools after mints and burns.
import { callMany } from '../chain/index.ts';
import type { StoredPool } from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { familyOf } from './families/index.ts';

/**
 * The stable flag of new pools whose creation event lacks it (Etherex legacy), from the pool's own
 * view at the batch's end block (the flag never changes). When the view does not answer, the flag
 * stays null and the family gives the pool no price or depth: it never prices a token by a guessed
 * invariant (its swaps still count).
 */
export async function readStableFlags(ctx: IndexerContext, pools: StoredPool[], block: number): Promise<void> {
  const reads = pools.filter((p) => familyOf(p.kind).stableCall && p.stable === null);
  if (reads.length === 0) return;
  const answers = await callMany(ctx.chain, reads.map((p) => ({ to: p.address, data: familyOf(p.kind).stableCall! })), block, ctx.config.multicall3);
  reads.forEach((pool, i) => {
    const answer = answers[i];
    if (answer?.ok && answer.data.length >= 66) pool.stable = BigInt(answer.data.slice(0, 66)) !== 0n;
  });
}

/** √price and active liquidity read at the block of a mint, burn or initialisation, by each family's views; keyed `block:pool`. */
export async function readPoolStates(ctx: IndexerContext, reads: { pool: StoredPool; block: number }[]) {
  const result = new Map<string, { sqrtPriceX96: bigint; liquidity: bigint }>();
  const byBlock = new Map<number, StoredPool[]>();
  for (const r of reads) byBlock.set(r.block, [...(byBlock.get(r.block) ?? []), r.pool]);
  for (const [block, pools] of byBlock) {
    const calls = pools.flatMap((pool) => {
      const [price, liquidity] = familyOf(pool.kind).stateCalls ?? [];
      return [{ to: pool.address, data: price ?? '0x' }, { to: pool.address, data: liquidity ?? '0x' }];
    });
    const answers = await callMany(ctx.chain, calls, block, ctx.config.multicall3);
    pools.forEach((pool, i) => {
      const price = answers[i * 2];
      const liquidity = answers[i * 2 + 1];
      if (price?.ok && liquidity?.ok && price.data.length >= 66 && liquidity.data.length >= 66) {
        result.set(`${block}:${pool.address}`, { sqrtPriceX96: BigInt(price.data.slice(0, 66)), liquidity: BigInt(liquidity.data.slice(0, 66)) });
      }
    });
  }
  return result;
}
