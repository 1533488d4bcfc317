// Pricing from the USD anchor through quote tokens in their order (docs/indexer.md, "Pricing"):
// a quote token is priced only against quote tokens before it, so the choice is acyclic; a
// stablecoin is market-priced; the anchor is the feed's answer or the peg.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IndexerToken, StoredPool } from '../../src/db/indexer/index.ts';
import { addPool, type IndexerState } from '../../src/indexer/state/IndexerState.ts';
import { SCALE } from '../../src/indexer/math/fixed.ts';
import { createPricingConfig, priceWithSource, sourceKindOf } from '../../src/indexer/pricing/priceToken.ts';

const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const [WETH, USDC, USDT, TKN] = [A(1), A(2), A(3), A(4)];
const FEED = A(99);
const token = (address: string, decimals: number): IndexerToken => ({
  address, name: address, symbol: address.slice(-2), decimals, decimalsKnown: true, listed: false, logo: null,
  totalSupply: 10n ** 30n, supplyBlock: 0, firstSeenBlock: 0, firstSeenAt: new Date(0), circulatingSupply: null, circulatingBlock: null, circulatingReadAt: null,
});
const v2 = (address: string, t0: string, t1: string, r0: bigint, r1: bigint): StoredPool => ({
  address, kind: 'v2', factory: A(500), token0: t0, token1: t1, fee: 3000, stable: null, hooks: null, native0: false, createdBlock: 0, createdAt: null, lastEventAt: null,
  state: { reserve0: r0, reserve1: r1, sqrtPriceX96: null, liquidity: null, tick: null, fee: null }, liquidityNet: new Map(),
});
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

function world(): IndexerState {
  const state: IndexerState = { tokens: new Map(), pools: new Map(), poolsByToken: new Map(), prices: new Map(), feed: null, swaps24h: new Map(), trustWritten: new Map(), lures: new Map(), contractChecks: new Map() };
  for (const [a, d] of [[WETH, 18], [USDC, 6], [USDT, 6], [TKN, 18]] as const) state.tokens.set(a, token(a, d));
  addPool(state, v2(A(201), WETH, USDC, 1000n * E18, 3_030_000n * E6)); // WETH at 3,030 USDC
  addPool(state, v2(A(202), USDC, USDT, 5_000_000n * E6, 5_100_000n * E6)); // USDT at 0.98 USDC (deep)
  addPool(state, v2(A(203), WETH, USDT, 100n * E18, 300_000n * E6)); // USDT via WETH
  addPool(state, v2(A(204), TKN, USDT, 1_000_000n * E18, 2_000_000n * E6)); // TKN at 2 USDT
  return state;
}
const num = (p: bigint | null) => (p === null ? null : Number((p * 1_000_000n) / SCALE) / 1_000_000);
const price = (state: IndexerState, config: ReturnType<typeof createPricingConfig>, t: string) => {
  const r = priceWithSource(state, t, config);
  state.prices.set(t, { price: r.price, blockNumber: 1, observedAt: new Date(0), source: r.source });
  return r;
};

describe('pricing from the USD anchor', () => {
  it('with a feed: WETH is the feed, USDC is priced through WETH, USDT through the deepest earlier quote', () => {
    const config = createPricingConfig({ stablecoins: [USDC, USDT], wrappedNative: WETH, usdFeed: FEED, usdPeg: null, minLiquidityUsd: 1000n * SCALE });
    assert.deepEqual(config.quotes, [WETH, USDC, USDT]);
    const state = world();
    assert.equal(price(state, config, WETH).price, null, 'no feed answer yet: no price');
    state.feed = { price: 3000n * SCALE, updatedAt: new Date(0), blockNumber: 1 };
    const weth = price(state, config, WETH);
    assert.deepEqual([num(weth.price), weth.source, sourceKindOf(config, WETH, weth.source)], [3000, FEED, 'usd-feed']);
    const usdc = price(state, config, USDC);
    assert.deepEqual([num(usdc.price), usdc.source], [0.990099, A(201)], 'USDC = 3000 / 3030: a stablecoin off its peg shows');
    const usdt = price(state, config, USDT);
    assert.equal(usdt.source, A(202), 'the USDC/USDT pool is deeper than WETH/USDT');
    assert.equal(num(usdt.price), 0.970685);
    const tkn = price(state, config, TKN);
    assert.deepEqual([num(tkn.price), sourceKindOf(config, TKN, tkn.source)], [1.94137, 'pool']);
  });

  it('without a feed: the first stablecoin is pegged at 1; WETH through it; USDC is never priced through USDT', () => {
    const config = createPricingConfig({ stablecoins: [USDC, USDT], wrappedNative: WETH, usdFeed: null, usdPeg: null, minLiquidityUsd: 1000n * SCALE });
    assert.deepEqual(config.quotes, [USDC, WETH, USDT]);
    const state = world();
    const usdc = price(state, config, USDC);
    assert.deepEqual([num(usdc.price), usdc.source, sourceKindOf(config, USDC, usdc.source)], [1, USDC, 'usd-peg']);
    assert.equal(num(price(state, config, WETH).price), 3030);
    assert.equal(price(state, config, USDT).source, A(202));
  });

  it('a quote token is priced only against quote tokens before it (no cycle)', () => {
    const config = createPricingConfig({ stablecoins: [USDC, USDT], wrappedNative: WETH, usdFeed: FEED, usdPeg: null, minLiquidityUsd: 1000n * SCALE });
    const state = world();
    state.feed = { price: 3000n * SCALE, updatedAt: new Date(0), blockNumber: 1 };
    for (const t of [WETH, USDC, USDT]) price(state, config, t);
    state.pools.delete(A(201)); // USDC's only pool against an earlier quote (WETH) is gone
    state.poolsByToken.get(USDC)!.delete(A(201));
    assert.equal(priceWithSource(state, USDC, config).price, null, 'USDC is not priced through USDT, which comes after it');
  });

  it('an explicit peg overrides the first stablecoin; no stablecoin and no feed prices nothing', () => {
    assert.deepEqual(createPricingConfig({ stablecoins: [USDC, USDT], wrappedNative: WETH, usdFeed: null, usdPeg: USDT, minLiquidityUsd: 0n }).quotes, [USDT, WETH, USDC]);
    const none = createPricingConfig({ stablecoins: [], wrappedNative: WETH, usdFeed: null, usdPeg: null, minLiquidityUsd: 0n });
    assert.equal(none.anchor, null);
    assert.equal(priceWithSource(world(), WETH, none).price, null);
  });
});
