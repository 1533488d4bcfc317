// Pricing from the USD anchor (docs/indexer.md, "Pricing"): the stablecoin basket's lower median is
// 1 USD, the wrapped native token is priced from its deepest pool against the stablecoins, the USD
// feed guards the basket and takes over when the whole basket leaves USD; every figure below is
// worked out by hand from the pools' reserves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IndexerToken, StoredPool } from '../../src/db/indexer/index.ts';
import { addPool, type IndexerState } from '../../src/indexer/state/IndexerState.ts';
import { SCALE } from '../../src/indexer/math/fixed.ts';
import { createPricingConfig, priceQuoteTokens, priceWithSource, sourceKindOf } from '../../src/indexer/pricing/priceToken.ts';

const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const [WETH, USDC, USDT, DAI, TKN] = [A(1), A(2), A(3), A(5), A(4)];
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
const [USDC_USDT, DAI_USDC, WETH_USDC, WETH_USDT, TKN_USDT, WETH_DAI] = [A(202), A(205), A(201), A(203), A(204), A(206)];

/** USDT on its peg against USDC, DAI at 0.97 USDC, WETH at 3,030 USDC and 3,000 USDT, TKN at 2 USDT. */
function world(): IndexerState {
  const state: IndexerState = { tokens: new Map(), pools: new Map(), poolsByToken: new Map(), prices: new Map(), feed: null, swaps24h: new Map(), trustWritten: new Map(), lures: new Map(), contractChecks: new Map() };
  for (const [a, d] of [[WETH, 18], [USDC, 6], [USDT, 6], [DAI, 18], [TKN, 18]] as const) state.tokens.set(a, token(a, d));
  addPool(state, v2(USDC_USDT, USDC, USDT, 5_000_000n * E6, 5_000_000n * E6));
  addPool(state, v2(DAI_USDC, DAI, USDC, 1_000_000n * E18, 970_000n * E6));
  addPool(state, v2(WETH_USDC, WETH, USDC, 1000n * E18, 3_030_000n * E6));
  addPool(state, v2(WETH_USDT, WETH, USDT, 100n * E18, 300_000n * E6));
  addPool(state, v2(TKN_USDT, TKN, USDT, 1_000_000n * E18, 2_000_000n * E6));
  return state;
}
const setReserves = (state: IndexerState, pool: string, r0: bigint, r1: bigint) => {
  state.pools.get(pool)!.state = { ...state.pools.get(pool)!.state, reserve0: r0, reserve1: r1 };
};
const num = (p: bigint | null | undefined) => (p === null || p === undefined ? null : Number((p * 1_000_000n) / SCALE) / 1_000_000);
const config = (options: { stablecoins?: string[]; usdFeed?: string | null; usdPeg?: string | null } = {}) => createPricingConfig({
  stablecoins: options.stablecoins ?? [USDC, USDT, DAI], wrappedNative: WETH, usdFeed: options.usdFeed === undefined ? FEED : options.usdFeed,
  usdPeg: options.usdPeg ?? null, minLiquidityUsd: 1000n * SCALE,
});
/** Every quote token priced at once, then TKN against them (as replayBlocks does). */
function priceAll(state: IndexerState, c: ReturnType<typeof config>) {
  const quotes = priceQuoteTokens(state, c);
  for (const [t, r] of quotes) state.prices.set(t, { price: r.price, blockNumber: 1, observedAt: new Date(0), valueSince: new Date(0), source: r.source });
  const tkn = priceWithSource(state, TKN, c);
  const of = (t: string) => (t === TKN ? tkn : quotes.get(t)!);
  return { usd: (t: string) => num(of(t).price), source: (t: string) => of(t).source, kind: (t: string) => sourceKindOf(c, t, of(t).source) };
}

describe('pricing from the stablecoin basket', () => {
  it('the median stablecoin is 1 USD: USDC and USDT on their peg read 1, DAI shows its own depeg, WETH through its deepest stablecoin pool', () => {
    const state = world();
    state.feed = { price: 3000n * SCALE, updatedAt: new Date(0), blockNumber: 1 }; // 1 % off the basket's 3,030: within the guard
    const p = priceAll(state, config());
    assert.deepEqual([p.usd(USDC), p.usd(USDT), p.usd(DAI)], [1, 1, 0.97]);
    assert.deepEqual([p.source(USDC), p.kind(USDC)], [USDC, 'usd-basket'], 'USDC is the median itself');
    assert.deepEqual([p.source(USDT), p.kind(USDT), p.source(DAI)], [USDC_USDT, 'pool', DAI_USDC]);
    assert.deepEqual([p.usd(WETH), p.source(WETH), p.kind(WETH)], [3030, WETH_USDC, 'pool'], 'the WETH/USDC pool is deeper than WETH/USDT');
    assert.equal(p.usd(TKN), 2);
  });

  it("USDC's own pools at 0.97 show USDC at 0.97 while USDT and DAI stay at 1", () => {
    const state = world();
    setReserves(state, USDC_USDT, 5_000_000n * E6, 4_850_000n * E6); // USDC = 0.97 USDT
    setReserves(state, DAI_USDC, 970_000n * E18, 1_000_000n * E6); // USDC = 0.97 DAI
    const p = priceAll(state, config());
    assert.deepEqual([p.usd(USDC), p.usd(USDT), p.usd(DAI)], [0.97, 1, 1]);
    assert.equal(p.kind(USDC), 'usd-basket');
    assert.notEqual(p.source(USDC), USDC, 'the median is another stablecoin');
  });

  it('a depeg of the whole basket trips the feed guard: WETH is the feed, the stablecoins show their depeg', () => {
    const state = world();
    state.feed = { price: 3000n * SCALE, updatedAt: new Date(0), blockNumber: 1 };
    // Every stablecoin at 0.95 USD: WETH costs 3,157.89 of each, 5.3 % above the feed.
    setReserves(state, WETH_USDC, 1000n * E18, 3_157_894_736_842n);
    setReserves(state, DAI_USDC, 1_000_000n * E18, 1_000_000n * E6);
    const p = priceAll(state, config());
    assert.deepEqual([p.usd(WETH), p.source(WETH), p.kind(WETH)], [3000, FEED, 'usd-feed']);
    assert.deepEqual([p.usd(USDC), p.source(USDC), p.kind(USDC)], [0.95, WETH_USDC, 'pool']);
    assert.deepEqual([p.usd(USDT), p.source(USDT)], [0.95, USDC_USDT], 'USDT through its deeper pool against USDC');
    assert.equal(p.usd(DAI), 0.95);
  });

  it('within the guard, or without a feed, the basket holds', () => {
    const state = world();
    setReserves(state, WETH_USDC, 1000n * E18, 3_057_000n * E6); // 1.9 % above the feed
    state.feed = { price: 3000n * SCALE, updatedAt: new Date(0), blockNumber: 1 };
    assert.deepEqual([priceAll(state, config()).usd(USDC), priceAll(state, config()).kind(WETH)], [1, 'pool']);
    state.feed = { price: 2000n * SCALE, updatedAt: new Date(0), blockNumber: 1 };
    assert.equal(priceAll(state, config({ usdFeed: null })).usd(WETH), 3057, 'no feed configured: no guard');
  });

  it('a stablecoin without a pool against an earlier one is priced like any token, after WETH', () => {
    const state = world();
    state.pools.delete(DAI_USDC);
    state.poolsByToken.get(DAI)!.delete(DAI_USDC);
    state.poolsByToken.get(USDC)!.delete(DAI_USDC);
    addPool(state, v2(WETH_DAI, WETH, DAI, 100n * E18, 297_000n * E18)); // DAI at 3030/2970 = 1.0202
    const p = priceAll(state, config());
    assert.deepEqual([p.usd(USDC), p.usd(USDT), p.usd(DAI), p.source(DAI)], [1, 1, 1.020202, WETH_DAI]);
  });

  it('the reference stablecoin only names the unit: the same prices with USDT as reference', () => {
    const a = priceAll(world(), config());
    const b = priceAll(world(), config({ usdPeg: USDT }));
    assert.deepEqual([WETH, USDC, USDT, DAI, TKN].map(b.usd), [WETH, USDC, USDT, DAI, TKN].map(a.usd));
    assert.equal(b.kind(USDT), 'usd-basket');
  });

  it('a basket of one is a peg; no stablecoin: the feed prices WETH; neither: nothing is priced', () => {
    const one = priceAll(world(), config({ stablecoins: [USDT], usdFeed: null }));
    assert.deepEqual([one.usd(USDT), one.kind(USDT), one.usd(WETH)], [1, 'usd-basket', 3000]);
    const state = world();
    state.feed = { price: 3000n * SCALE, updatedAt: new Date(0), blockNumber: 1 };
    const feed = priceAll(state, config({ stablecoins: [] }));
    assert.deepEqual([feed.usd(WETH), feed.kind(WETH), feed.usd(TKN)], [3000, 'usd-feed', null]);
    const none = config({ stablecoins: [], usdFeed: null });
    assert.equal(none.anchor, null);
    assert.equal(priceWithSource(world(), WETH, none).price, null);
  });
});
