// Turns indexer state into the API's pool rows: family, tokens, USD liquidity and spot price.
import type { PoolWrite } from '../db/index.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { formatFixed } from './math/fixed.ts';
import { familyOf } from './families/index.ts';
import type { PoolFigures } from './pricing/poolFigures.ts';

const VALUE_DIGITS = 18;

export function buildPoolWrites(state: IndexerState, addresses: Iterable<string>, figures: PoolFigures): PoolWrite[] {
  const writes: PoolWrite[] = [];
  for (const address of addresses) {
    const pool = state.pools.get(address);
    if (!pool) continue;
    const liquidity = figures.liquidity(pool);
    const price = figures.price(pool);
    writes.push({
      address,
      dex: pool.factory,
      family: familyOf(pool.kind).api,
      // Where the fee can change with every swap (V4), the latest swap's.
      fee: pool.state.fee ?? pool.fee,
      stable: pool.stable,
      hooks: pool.hooks,
      priceSourceExclusion: familyOf(pool.kind).priceSourceExclusion?.(pool) ?? null,
      token0Native: pool.native0,
      token0: pool.token0,
      token0Symbol: state.tokens.get(pool.token0)?.symbol ?? '',
      token1: pool.token1,
      token1Symbol: state.tokens.get(pool.token1)?.symbol ?? '',
      liquidity: liquidity === null ? null : formatFixed(liquidity, VALUE_DIGITS),
      price: price === null ? null : formatFixed(price),
      createdBlock: pool.createdBlock,
    });
  }
  return writes;
}
