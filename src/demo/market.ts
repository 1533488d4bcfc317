// One simulated block of market activity: traders push primary pools along each token's reference
// price path (trend + noise), an arbitrageur pulls secondary pools back in line, retail adds noise,
// and the network token sees burns, treasury/ecosystem transfers and L1 supply syncs.
import type { DemoClient, TxReceipt } from './client.ts';
import type { DemoDeployment, DemoPoolInfo } from './deploy.ts';
import { applyPoolLogs, isReservePool, poolsByAddress, readPoolStates, type PoolReserves } from './poolState.ts';
import { CONCENTRATED_POOL } from './seedFamilyPools.ts';
import type { Prng } from './prng.ts';
import { isqrt, ratio } from './units.ts';

export interface MarketCounters {
  blocks: number;
  /** Swap events in Uniswap V2's layout (V2, Solidly and SyncSwap pools). */
  swapsV2: number;
  /** Swap events in Uniswap V3's 7-field layout (V3 and Algebra pools). */
  swapsV3: number;
  /** PancakeSwap V3's 9-field Swap events. */
  swapsPancakeV3: number;
  /** Uniswap V4's PoolManager Swap events. */
  swapsV4: number;
  burns: number;
  transfers: number;
  liquidityEvents: number;
  l1Syncs: number;
}

export interface Market {
  c: DemoClient;
  d: DemoDeployment;
  rng: Prng;
  /** log of the reference USD price per token address. */
  refLog: Map<string, number>;
  lastTime: number;
  counters: MarketCounters;
  l1Burned: bigint;
  tradeCursor: number;
  /** The ETH/USD feed's last posted answer (USD) and when it was posted (chain seconds). */
  feed: { answer: number; postedAt: number };
  /** A stablecoin's scheduled depeg, if any. */
  depeg: StablecoinDepeg | null;
  /**
   * The pools' states followed through the mined blocks' events (applyPoolLogs), when this market
   * is the only trader on the chain (the back-dated history); null: read them before every block.
   */
  followed: { states: Map<string, PoolReserves>; pools: Map<string, DemoPoolInfo> } | null;
}

/**
 * A short depeg of one stablecoin's reference price: it falls to `trough` over 90 minutes from
 * `start`, recovers most of the way in the next 3.5 hours, and is back at 1 USD 20 hours after
 * `start` (log-linear between those points). Traders and the arbitrageur follow it in its pools.
 */
export type StablecoinDepeg = { token: string; start: number; trough: number };

const HOUR = 3600;

export function depegFactor(depeg: StablecoinDepeg, t: number): number {
  const knots: [number, number][] = [[0, 1], [1.5 * HOUR, depeg.trough], [5 * HOUR, 0.99], [8 * HOUR, 0.994], [20 * HOUR, 1]];
  const dt = t - depeg.start;
  if (dt <= 0 || dt >= 20 * HOUR) return 1;
  const i = knots.findIndex(([at]) => at >= dt);
  const [t0, v0] = knots[i - 1]!;
  const [t1, v1] = knots[i]!;
  return Math.exp(Math.log(v0) + ((Math.log(v1) - Math.log(v0)) * (dt - t0)) / (t1 - t0));
}

const MAX_UINT = 2n ** 256n - 1n;
const DAILY_VOL = 0.03;
const PRIMARY_BAND = 0.006;
const ANCHOR_BAND = 0.0012;
const ARB_BAND = 0.005;
const MAX_SWAP_SHARE = 30n; // per mille of the input reserve

/** The feed posts when the reference moves this much from its last answer, or after the heartbeat. */
const FEED_DEVIATION = 0.001;
const FEED_HEARTBEAT_SEC = HOUR;

export async function createMarket(
  c: DemoClient,
  d: DemoDeployment,
  rng: Prng,
  startTime: number,
  depeg: StablecoinDepeg | null = null,
  options: { onlyTrader?: boolean } = {},
): Promise<Market> {
  const states = await readPoolStates(c, d.multicall3, d.pools);
  const refLog = new Map<string, number>();
  for (const [address, usd] of impliedUsd(d, states)) refLog.set(address, Math.log(usd));
  const counters = { blocks: 0, swapsV2: 0, swapsV3: 0, swapsPancakeV3: 0, swapsV4: 0, burns: 0, transfers: 0, liquidityEvents: 0, l1Syncs: 0 };
  const [, answer, , updatedAt] = (await c.call(d.usdFeed, 'DemoUsdFeed', 'latestRoundData')) as bigint[];
  const feed = { answer: Number(answer) / 1e8, postedAt: Number(updatedAt) };
  const followed = options.onlyTrader ? { states, pools: poolsByAddress(d.pools) } : null;
  return { c, d, rng, refLog, lastTime: startTime, counters, l1Burned: 0n, tradeCursor: 0, feed, depeg, followed };
}

/** Queues one block's transactions and mines it (at `timestamp`, or the chain clock if undefined). */
export async function tradeBlock(m: Market, timestamp: number | undefined): Promise<void> {
  const { c, d, rng } = m;
  const now = timestamp ?? Math.floor(Date.now() / 1000);
  advanceReference(m, now);
  const states = m.followed?.states ?? (await readPoolStates(c, d.multicall3, d.pools));
  const implied = impliedUsd(d, states, m.refLog);
  const touched = new Set<string>();
  const live = d.pools.filter((p) => p.role !== 'dust');

  for (const p of live) {
    const r = states.get(p.address);
    if (!r) continue;
    if (p.role === 'primary') {
      const target = usdOf(m.refLog, p.base) / usdOf(m.refLog, p.quote);
      // The wrapped native token's stablecoin market is kept tight (as arbitrage against centralised
      // exchanges keeps it): stablecoins are priced through it, so its band is their noise.
      const band = p.base === d.weth && d.stablecoins.includes(p.quote) ? ANCHOR_BAND : PRIMARY_BAND;
      if (await moveToward(m, p, r, target * (1 + rng.gauss() * (band === ANCHOR_BAND ? 0.0003 : 0.001)), band, nextTrader(m))) touched.add(p.address);
    } else {
      const base = implied.get(p.base);
      const quote = implied.get(p.quote);
      if (base && quote && (await moveToward(m, p, r, base / quote, ARB_BAND, d.accounts.arbitrageur))) touched.add(p.address);
    }
  }
  // Retail noise on pools nobody traded this block (one swap per pool keeps amounts predictable).
  for (let n = rng.int(0, 3); n > 0; n--) {
    const p = rng.pick(live);
    const r = states.get(p.address);
    if (!r || touched.has(p.address)) continue;
    touched.add(p.address);
    const baseIn = rng.next() < 0.5;
    const perMille = BigInt(rng.int(1, 5));
    await swap(m, p, r, baseIn, ((baseIn ? r.base : r.quote) * perMille) / 1000n, nextTrader(m));
  }
  await sideActivity(m);
  await reportFeed(m, now);
  const receipts = await c.mine(timestamp);
  m.counters.blocks += 1;
  const logs = [...receipts.values()].sort(byPosition).flatMap((r) => r.logs);
  if (m.followed) applyPoolLogs(m.followed.states, m.followed.pools, logs);
  countSwaps(m, logs.map((l) => l.topics[0] ?? ''));
}

const byPosition = (a: TxReceipt, b: TxReceipt) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.transactionIndex) - Number(b.transactionIndex);

function advanceReference(m: Market, now: number): void {
  const dtDays = Math.max(0, now - m.lastTime) / 86_400;
  m.lastTime = Math.max(m.lastTime, now);
  if (dtDays === 0) return;
  if (m.depeg) m.refLog.set(m.depeg.token, Math.log(depegFactor(m.depeg, now)));
  for (const t of m.d.tokens) {
    if (t.kind === 'stablecoin' || !m.refLog.has(t.address)) continue;
    const drift = Math.log(1 + t.trendPerDay) * dtDays;
    m.refLog.set(t.address, (m.refLog.get(t.address) ?? 0) + drift + DAILY_VOL * Math.sqrt(dtDays) * m.rng.gauss());
  }
}

const usdOf = (refLog: Map<string, number>, token: string) => Math.exp(refLog.get(token) ?? 0);

/** USD per whole token implied by the primary pools (stablecoins at their reference: 1 but during a depeg). */
function impliedUsd(d: DemoDeployment, states: Map<string, PoolReserves>, refLog?: Map<string, number>): Map<string, number> {
  const usd = new Map<string, number>(d.stablecoins.map((s) => [s, refLog ? usdOf(refLog, s) : 1]));
  const decimals = new Map(d.tokens.map((t) => [t.address, t.decimals]));
  // Primary pools quote in WETH or a stablecoin; resolve stable-quoted first so WETH is known.
  const primaries = d.pools.filter((p) => p.role === 'primary').sort((a, b) => Number(usd.has(b.quote)) - Number(usd.has(a.quote)));
  for (const p of primaries) {
    const r = states.get(p.address);
    const quoteUsd = usd.get(p.quote);
    if (!r || quoteUsd === undefined || r.base === 0n) continue;
    const scale = 10 ** ((decimals.get(p.base) ?? 18) - (decimals.get(p.quote) ?? 18));
    usd.set(p.base, (Number((r.quote * 10n ** 36n) / r.base) / 1e36) * scale * quoteUsd);
  }
  return usd;
}

/** Swaps pool p toward `targetUsdRatio` (USD of base / USD of quote) if it is off by more than `band`. */
async function moveToward(m: Market, p: DemoPoolInfo, r: PoolReserves, targetUsdRatio: number, band: number, actor: string): Promise<boolean> {
  if (r.base === 0n || r.quote === 0n || !(targetUsdRatio > 0)) return false;
  const decimals = new Map(m.d.tokens.map((t) => [t.address, t.decimals]));
  const shift = (decimals.get(p.quote) ?? 18) - (decimals.get(p.base) ?? 18);
  const { num, den } = ratio(targetUsdRatio);
  // Target price in base units: quote/base = num/den * 10^shift.
  const [tNum, tDen] = shift >= 0 ? [num * 10n ** BigInt(shift), den] : [num, den * 10n ** BigInt(-shift)];
  const deviationPpm = (r.quote * tDen * 1_000_000n) / (r.base * tNum) - 1_000_000n;
  if ((deviationPpm < 0n ? -deviationPpm : deviationPpm) < BigInt(Math.round(band * 1e6))) return false;
  const k = r.base * r.quote;
  const newBase = isqrt((k * tDen) / tNum);
  const feeDen = 1_000_000n - BigInt(p.fee);
  if (newBase < r.base) return swap(m, p, r, false, ((k / newBase - r.quote) * 1_000_000n) / feeDen, actor);
  return swap(m, p, r, true, ((newBase - r.base) * 1_000_000n) / feeDen, actor);
}

async function swap(m: Market, p: DemoPoolInfo, r: PoolReserves, baseIn: boolean, amount: bigint, actor: string): Promise<boolean> {
  const reserveIn = baseIn ? r.base : r.quote;
  const reserveOut = baseIn ? r.quote : r.base;
  const cap = (reserveIn * MAX_SWAP_SHARE) / 1000n;
  const amountIn = amount > cap ? cap : amount;
  const inLessFee = (amountIn * (1_000_000n - BigInt(p.fee))) / 1_000_000n;
  // Skip swaps that would pay out nothing (the pair would revert).
  if (inLessFee === 0n || (inLessFee * reserveOut) / (reserveIn + inLessFee) < 2n) return false;
  const [tokenIn, tokenOut] = baseIn ? [p.base, p.quote] : [p.quote, p.base];
  const contract = m.d.tokens.find((t) => t.address === tokenIn)?.contract;
  // Nobody but its owner can sell the honeypot: traders only buy it.
  if (contract === 'honeypot') return false;
  if (p.protocol === 'uniswap-v2' && contract === 'tax') {
    await m.c.send(actor, p.spender, 'UniswapV2Router', 'swapExactTokensForTokensSupportingFeeOnTransferTokens', [amountIn, 0n, [tokenIn, tokenOut], actor, MAX_UINT], { gas: 250_000n });
  } else if (p.protocol === 'uniswap-v2') {
    await m.c.send(actor, p.spender, 'UniswapV2Router', 'swapExactTokensForTokens', [amountIn, 0n, [tokenIn, tokenOut], actor, MAX_UINT], { gas: 250_000n });
  } else if (p.v4) {
    const { key, native0 } = p.v4;
    const zeroForOne = tokenIn === p.token0;
    await m.c.send(actor, p.factory, 'DemoPoolManager', 'swap', [[key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks], zeroForOne, amountIn, actor], {
      gas: 300_000n, ...(native0 && zeroForOne ? { value: amountIn } : {}),
    });
  } else if (isReservePool(p)) {
    await m.c.send(actor, p.address, 'DemoReservePool', 'swap', [tokenIn, amountIn, actor], { gas: 300_000n });
  } else {
    await m.c.send(actor, p.address, CONCENTRATED_POOL[p.protocol] ?? 'DemoV3Pool', 'swap', [actor, tokenIn === p.token0, amountIn, 0n, '0x'], { gas: 250_000n });
  }
  return true;
}

function nextTrader(m: Market): string {
  const traders = m.d.accounts.traders;
  return traders[m.tradeCursor++ % traders.length] as string;
}

// The feed's reporter posts the reference ETH/USD price, as Chainlink's nodes post the market's:
// on a deviation from the last answer or after the heartbeat.
async function reportFeed(m: Market, now: number): Promise<void> {
  const usd = usdOf(m.refLog, m.d.weth);
  if (Math.abs(usd / m.feed.answer - 1) < FEED_DEVIATION && now - m.feed.postedAt < FEED_HEARTBEAT_SEC) return;
  await m.c.send(m.d.accounts.reporter, m.d.usdFeed, 'DemoUsdFeed', 'post', [BigInt(Math.round(usd * 1e8))], { gas: 100_000n });
  m.feed = { answer: usd, postedAt: now };
}

// Network-token burns and flows, spam airdrops, hostile-token transfers and LP adds/removes.
async function sideActivity(m: Market): Promise<void> {
  const { c, d, rng } = m;
  const token = d.networkToken.address;
  const whole = 10n ** 18n;
  if (rng.next() < 0.12) {
    const burner = rng.pick(d.networkToken.burners);
    const [balance] = await c.call(token, 'NetworkToken', 'balanceOf', [burner]);
    const amount = ((balance as bigint) * BigInt(rng.int(1, 20))) / 1000n;
    if (amount > 0n) {
      await c.send(burner, token, 'NetworkToken', 'burn', [amount], { gas: 100_000n });
      m.counters.burns += 1;
    }
  }
  if (rng.next() < 0.15) {
    const flows: [string, string][] = [
      [d.networkToken.treasury, d.networkToken.ecosystem],
      [d.networkToken.ecosystem, rng.pick(d.accounts.traders)],
      [rng.pick(d.accounts.traders), d.networkToken.treasury],
    ];
    const [from, to] = rng.pick(flows);
    await c.send(from, token, 'NetworkToken', 'transfer', [to, BigInt(rng.int(1_000, 5_000_000)) * whole], { gas: 100_000n });
    m.counters.transfers += 1;
  }
  if (rng.next() < 0.06) {
    await c.send(d.accounts.deployer, d.spamToken, 'DemoToken', 'transfer', [rng.pick(d.accounts.traders), BigInt(rng.int(1, 1000)) * 10n ** 24n], { gas: 100_000n });
    m.counters.transfers += 1;
  }
  if (rng.next() < 0.06) {
    const hostile = rng.pick([d.hostileTokens.revertingName, d.hostileTokens.maxDecimals, d.hostileTokens.noDecimals]);
    await c.send(d.accounts.deployer, hostile, 'DemoToken', 'transfer', [rng.pick(d.accounts.traders), BigInt(rng.int(1, 1000)) * 10n ** 15n], { gas: 100_000n });
    m.counters.transfers += 1;
  }
  if (rng.next() < 0.04) await l1Sync(m);
  if (rng.next() < 0.05) await liquidityChange(m);
}

// On Linea burns settle on L1; the L2 token mirrors L1's supply. Here L1 = L2 supply minus L1-only burns.
async function l1Sync(m: Market): Promise<void> {
  const { c, d, rng } = m;
  m.l1Burned += BigInt(rng.int(1, 1_000_000)) * 10n ** 18n;
  const [supply] = await c.call(d.networkToken.address, 'NetworkToken', 'totalSupply');
  const l1Block = 20_000_000 + m.counters.blocks * 50;
  await c.send(d.accounts.deployer, d.networkToken.address, 'NetworkToken', 'syncL1TotalSupply', [(supply as bigint) - m.l1Burned, l1Block], { gas: 100_000n });
  m.counters.l1Syncs += 1;
}

async function liquidityChange(m: Market): Promise<void> {
  const { c, d, rng } = m;
  const lp = d.accounts.liquidityProvider;
  const p = rng.pick(d.pools.filter((x) => x.protocol === 'uniswap-v2' && x.role !== 'dust'));
  if (rng.next() < 0.6) {
    const [r0, r1] = await c.call(p.address, 'UniswapV2Pair', 'getReserves');
    const share = BigInt(rng.int(5, 20));
    // Tiny deposits (e.g. a few units of a 0-decimal token) would mint zero LP tokens and revert.
    const smaller = (r0 as bigint) < (r1 as bigint) ? (r0 as bigint) : (r1 as bigint);
    if ((smaller * share) / 1000n < 1000n) return;
    await c.send(lp, p.spender, 'UniswapV2Router', 'addLiquidity', [p.token0, p.token1, ((r0 as bigint) * share) / 1000n, ((r1 as bigint) * share) / 1000n, 0n, 0n, lp, MAX_UINT], { gas: 400_000n });
  } else {
    const [balance] = await c.call(p.address, 'UniswapV2Pair', 'balanceOf', [lp]);
    const [supply] = await c.call(p.address, 'UniswapV2Pair', 'totalSupply');
    const [r0, r1] = await c.call(p.address, 'UniswapV2Pair', 'getReserves');
    const amount = ((balance as bigint) * BigInt(rng.int(5, 20))) / 1000n;
    // The pair reverts when either side of the withdrawal rounds to zero (e.g. 0-decimal tokens).
    const smaller = (r0 as bigint) < (r1 as bigint) ? (r0 as bigint) : (r1 as bigint);
    if ((amount * smaller) / (supply as bigint) === 0n) return;
    await c.send(lp, p.address, 'UniswapV2Pair', 'transfer', [p.address, amount], { gas: 100_000n });
    await c.send(lp, p.address, 'UniswapV2Pair', 'burn', [lp], { gas: 300_000n });
  }
  m.counters.liquidityEvents += 1;
}

function countSwaps(m: Market, topics: string[]): void {
  const v2 = m.c.iface('UniswapV2Pair').getEvent('Swap')?.topicHash;
  const v3 = m.c.iface('DemoV3Pool').getEvent('Swap')?.topicHash;
  const pancake = m.c.iface('DemoPancakeV3Pool').getEvent('Swap')?.topicHash;
  const v4 = m.c.iface('DemoPoolManager').getEvent('Swap')?.topicHash;
  for (const t of topics) {
    if (t === v2) m.counters.swapsV2 += 1;
    else if (t === v3) m.counters.swapsV3 += 1;
    else if (t === pancake) m.counters.swapsPancakeV3 += 1;
    else if (t === v4) m.counters.swapsV4 += 1;
  }
}
