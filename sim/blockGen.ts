// One block of the simulated chain as a pure function of (seed, block number, branch) and the state
// after the block before it: token mints, pool creations with their first liquidity, a USD feed
// round, and in the trading window swaps (heavy-tailed over the pools and the wallets), wallet
// transfers, liquidity added and removed, and owner mints. The same function builds the chain at
// start (its writes recorded) and regenerates any block on request (its writes dropped), so a block
// served is the block the state was built from.
import { addressWord, boolWord, data, topic, TOPIC0, word } from './abi.ts';
import type { History } from './history.ts';
import {
  concentratedSwap, constantProductOut, curveStableOut, EMPTY_BOOK, fullRange, modifyBook, positionAmounts, Q96, solidlyStableOut, tickOf,
  type ConcentratedState, type Position,
} from './math.ts';
import { hash32, Rng } from './prng.ts';
import { isConcentrated, movesAsErc20, NATIVE, SYNCSWAP_ANN, WETH, type Pool, type World } from './world.ts';

export type SimLog = { readonly address: string; readonly topics: string[]; readonly data: string; readonly topic0?: string };

/** An ERC-20 Transfer whose topics and data are written only when a request reads them (most filters skip transfers). */
class TransferLog implements SimLog {
  readonly topic0 = TOPIC0.transfer;
  constructor(readonly address: string, readonly from: string, readonly to: string, readonly amount: bigint) {}
  get topics(): string[] {
    return [TOPIC0.transfer, topic(addressWord(this.from)), topic(addressWord(this.to))];
  }
  get data(): string {
    return data(word(this.amount));
  }
}
export type SimTx = { from: string; to: string; input: string; logs: SimLog[] };
/** Reserve pools: the reserves; concentrated pools: √P and the active liquidity (a ConcentratedState: with the tick and the tick book). */
export type PoolState = { a: bigint; b: bigint };
export type FeedRound = { round: number; answer: bigint; updatedAt: number };
export type GeneratedBlock = { txs: SimTx[]; writes: Map<number, unknown>; swaps: number[] };

export const ZERO = '0x0000000000000000000000000000000000000000';
// State keys are numbers (a kind above 2^37, then token and holder ids): cheaper than strings.
const KIND = 2 ** 37;
const HOLDER = 2 ** 21;
export const poolKey = (i: number) => i;
/** A balance key; -1 when the holder has never held anything (an address the world does not know). */
export const balanceKey = (world: World, token: number, holder: string) => {
  const h = world.holderId.get(holder);
  return h === undefined ? -1 : KIND + token * HOLDER + h;
};
export const isBalanceKey = (key: number) => key >= KIND && key < 2 * KIND;
export const balanceKeyParts = (key: number) => ({ token: Math.floor((key - KIND) / HOLDER), holder: (key - KIND) % HOLDER });
export const supplyKey = (token: number) => 2 * KIND + token;
export const FEED_KEY = 3 * KIND;
const ZERO_WORD = word(0n);

/** The contract that holds a pool's tokens: the pool, or Uniswap V4's PoolManager. */
export const holderOf = (world: World, pool: Pool) => (pool.family === 'v4' ? world.addresses.poolManager : pool.id);

export function generateBlock(world: World, history: History, n: number, branch: number, timestamp: number): GeneratedBlock {
  const { profile } = world;
  const minted = world.tokensAt.get(n);
  const created = world.poolsAt.get(n);
  const trading = n >= world.tradingFrom;
  const feedEvery = !trading ? profile.feedEveryBefore : n > world.head ? profile.liveFeedEvery ?? profile.feedEvery : profile.feedEvery;
  const feedRound = n > 0 && n % feedEvery === 0;
  if (minted === undefined && created === undefined && !trading && !feedRound) return { txs: [], writes: new Map(), swaps: [] };
  return new BlockBuilder(world, history, n, branch).build(timestamp, minted, created, trading, feedRound);
}

/** One block's generation: its methods share the block's generator and writes (no closures made per block). */
class BlockBuilder {
  readonly txs: SimTx[] = [];
  readonly writes = new Map<number, unknown>();
  readonly swaps: number[] = [];
  readonly rng: Rng;
  readonly addresses: World['addresses'];
  readonly profile: World['profile'];

  constructor(readonly world: World, readonly history: History, readonly n: number, branch: number) {
    this.rng = new Rng(hash32(world.seed, n, branch));
    this.addresses = world.addresses;
    this.profile = world.profile;
  }

  get<T>(key: number, fallback: T): T {
    const w = this.writes.get(key);
    if (w !== undefined || this.writes.has(key)) return w as T;
    return this.history.at<T>(key, this.n - 1) ?? fallback;
  }

  balance(t: number, holder: string): bigint {
    return this.get<bigint>(balanceKey(this.world, t, holder), 0n);
  }

  poolState(p: Pool): PoolState | undefined {
    return this.get<PoolState | undefined>(poolKey(p.index), undefined);
  }

  build(timestamp: number, minted: number | undefined, created: number[] | undefined, trading: boolean, feedRound: boolean): GeneratedBlock {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    if (minted !== undefined) {
      const token = world.tokens[minted]!;
      const tx: SimTx = { from: addresses.treasury, to: token.address, input: '0x60806040', logs: [] };
      this.transfer(tx.logs, minted, ZERO, addresses.treasury, token.supply);
      txs.push(tx);
    }

    for (const i of created ?? []) txs.push(this.createPool(world.pools[i]!));

    if (feedRound) {
      const last = this.get<FeedRound>(FEED_KEY, { round: 0, answer: 3000_00000000n, updatedAt: 0 });
      // ETH/USD: a random walk of ±0.5 % per round (8 decimals).
      const answer = (last.answer * BigInt(Math.round(1e6 + (rng.next() - 0.5) * 1e4))) / 1_000_000n;
      const round = { round: last.round + 1, answer, updatedAt: timestamp };
      writes.set(FEED_KEY, round);
      txs.push({
        from: addresses.owner, to: addresses.aggregator, input: '0xc9807539',
        logs: [{ address: addresses.aggregator, topics: [TOPIC0.answerUpdated, topic(word(answer)), topic(word(round.round))], data: data(word(timestamp)) }],
      });
    }

    if (trading) {
      const swapsPerBlock = profile.swapsPerDay / 43_200;
      for (let k = rng.poisson(swapsPerBlock); k > 0; k--) this.swap();
      for (let k = rng.poisson(profile.transfersPerBlock); k > 0; k--) this.walletTransfer();
      if (rng.next() < profile.liquidityPerBlock) this.changeLiquidity();
      if (rng.next() < 0.002) this.ownerMint();
    }
    return { txs, writes, swaps: this.swaps };
  }
  transfer(logs: SimLog[], t: number, from: string, to: string, amount: bigint) {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    if (from === ZERO) writes.set(supplyKey(t), this.get<bigint>(supplyKey(t), 0n) + amount);
    else {
      const have = this.balance(t, from);
      if (have < amount) throw new Error(`block ${n}: ${from} holds ${have} of token ${t}, sends ${amount}`);
      writes.set(balanceKey(world, t, from), have - amount);
    }
    if (to === ZERO) writes.set(supplyKey(t), this.get<bigint>(supplyKey(t), 0n) - amount);
    else writes.set(balanceKey(world, t, to), this.balance(t, to) + amount);
    logs.push(new TransferLog(world.tokens[t]!.address, from, to, amount));
  }

  /** The treasury tops a wallet up first (a withdrawal from an exchange) when it lacks `amount`. */
  fund(wallet: string, t: number, amount: bigint) {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const have = this.balance(t, wallet);
    if (have >= amount) return;
    const tx: SimTx = { from: addresses.treasury, to: world.tokens[t]!.address, input: '0xa9059cbb', logs: [] };
    this.transfer(tx.logs, t, addresses.treasury, wallet, (amount - have) * 2n);
    txs.push(tx);
  }


  createPool(pool: Pool): SimTx {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const t0 = world.tokens[pool.token0]!;
    const t1 = world.tokens[pool.token1]!;
    const tx: SimTx = { from: addresses.treasury, to: pool.factory, input: '0xc9c65396', logs: [] };
    const L = tx.logs;
    const factoryLog = (topic0: string, extra: string[], words: string[]) =>
      L.push({ address: pool.factory, topics: [topic0, topic(addressWord(t0.address)), topic(addressWord(t1.address)), ...extra], data: data(...words) });
    const count = word(pool.index + 1);
    switch (pool.family) {
      case 'v2':
      case 'etherex-legacy':
        factoryLog(TOPIC0.pairCreated, [], [addressWord(pool.id), count]);
        break;
      case 'solidly':
        factoryLog(TOPIC0.solidlyPairCreated, [], [boolWord(pool.stable), addressWord(pool.id), count]);
        break;
      case 'syncswap-classic':
      case 'syncswap-stable':
        factoryLog(TOPIC0.syncSwapPoolCreated, [], [addressWord(pool.id)]);
        break;
      case 'v3':
      case 'pancake-v3':
        factoryLog(TOPIC0.poolCreated, [topic(word(pool.feePpm))], [word(pool.tickSpacing), addressWord(pool.id)]);
        break;
      case 'algebra':
        factoryLog(TOPIC0.algebraPool, [], [addressWord(pool.id)]);
        break;
      case 'v4':
        break;
    }
    if (isConcentrated(pool.family)) {
      const sqrtP = pool.initial.a;
      const tick = tickOf(sqrtP);
      if (pool.family === 'v4') {
        L.push({
          address: addresses.poolManager, topics: [TOPIC0.v4Initialize, pool.id, topic(addressWord(pool.native0 ? NATIVE : t0.address)), topic(addressWord(t1.address))],
          data: data(word(pool.feePpm), word(pool.tickSpacing), addressWord(pool.hooks), word(sqrtP), word(tick)),
        });
      } else L.push({ address: pool.id, topics: [TOPIC0.v3Initialize], data: data(word(sqrtP), word(tick)) });
      writes.set(poolKey(pool.index), { a: sqrtP, b: 0n, tick, book: EMPTY_BOOK } satisfies ConcentratedState);
      for (const p of initialPositions(world, pool, tick)) this.changePosition(tx, pool, addresses.treasury, p.lower, p.upper, p.liquidity);
    } else {
      writes.set(poolKey(pool.index), { a: 0n, b: 0n });
      this.addReserves(tx, pool, addresses.treasury, pool.initial.a, pool.initial.b);
    }
    return tx;
  }

  syncLog(pool: Pool, r0: bigint, r1: bigint): SimLog {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const topic0 = pool.family === 'v2' || pool.family === 'etherex-legacy' ? TOPIC0.v2Sync : TOPIC0.sync256;
    return { address: pool.id, topics: [topic0], data: data(word(r0), word(r1)) };
  }

  addReserves(tx: SimTx, pool: Pool, provider: string, a0: bigint, a1: bigint) {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const s = this.poolState(pool)!;
    this.transfer(tx.logs, pool.token0, provider, pool.id, a0);
    this.transfer(tx.logs, pool.token1, provider, pool.id, a1);
    const next = { a: s.a + a0, b: s.b + a1 };
    writes.set(poolKey(pool.index), next);
    tx.logs.push(this.syncLog(pool, next.a, next.b));
    tx.logs.push({ address: pool.id, topics: [TOPIC0.v2Mint, topic(addressWord(addresses.router))], data: data(word(a0), word(a1)) });
  }

  removeReserves(tx: SimTx, pool: Pool, provider: string, a0: bigint, a1: bigint) {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const s = this.poolState(pool)!;
    this.transfer(tx.logs, pool.token0, pool.id, provider, a0);
    this.transfer(tx.logs, pool.token1, pool.id, provider, a1);
    const next = { a: s.a - a0, b: s.b - a1 };
    writes.set(poolKey(pool.index), next);
    tx.logs.push(this.syncLog(pool, next.a, next.b));
    tx.logs.push({ address: pool.id, topics: [TOPIC0.v2Burn, topic(addressWord(addresses.router)), topic(addressWord(provider))], data: data(word(a0), word(a1)) });
  }

  /**
   * A position change of ±ΔL on [lower, upper): Mint/Burn (or V4's ModifyLiquidity) and the token
   * transfers of UniswapV3Pool._modifyPosition's amounts; the active liquidity changes only when the
   * range holds the pool's tick.
   */
  changePosition(tx: SimTx, pool: Pool, provider: string, lower: number, upper: number, delta: bigint) {
    const { world, addresses, writes } = this;
    const s = this.poolState(pool) as ConcentratedState;
    const adding = delta > 0n;
    const size = adding ? delta : -delta;
    const { amount0, amount1, active } = positionAmounts(s, lower, upper, delta);
    const holder = holderOf(world, pool);
    const [from, to] = adding ? [provider, holder] : [holder, provider];
    for (const [t, amount] of [[pool.token0, amount0], [pool.token1, amount1]] as const) {
      if (!movesAsErc20(pool, t) || amount === 0n) continue; // native ETH: no token moves
      if (adding) this.fund(provider, t, amount);
      this.transfer(tx.logs, t, from, to, amount);
    }
    writes.set(poolKey(pool.index), { a: s.a, b: active ? s.b + delta : s.b, tick: s.tick, book: modifyBook(s.book, lower, upper, delta) } satisfies ConcentratedState);
    if (pool.family === 'v4') {
      tx.logs.push({
        address: addresses.poolManager, topics: [TOPIC0.v4ModifyLiquidity, pool.id, topic(addressWord(addresses.router))],
        data: data(word(lower), word(upper), word(delta), ZERO_WORD),
      });
    } else if (adding) {
      tx.logs.push({
        address: pool.id, topics: [TOPIC0.v3Mint, topic(addressWord(addresses.router)), topic(word(lower)), topic(word(upper))],
        data: data(addressWord(addresses.router), word(size), word(amount0), word(amount1)),
      });
    } else {
      tx.logs.push({
        address: pool.id, topics: [TOPIC0.v3Burn, topic(addressWord(addresses.router)), topic(word(lower)), topic(word(upper))],
        data: data(word(size), word(amount0), word(amount1)),
      });
    }
  }

  pickPool(): Pool | null {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const hot = rng.next() < profile.hotShare;
    const i = hot ? world.hotPools[rng.int(world.hotPools.length)]! : rng.int(world.pools.length);
    const pool = world.pools[i]!;
    return pool.createdBlock < n ? pool : null;
  }

  /** Heavy-tailed: a few wallets trade most. */
  pickWallet(): string {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    return world.wallets[Math.floor(world.wallets.length * Math.pow(rng.next(), 3))]!;
  }

  swap() {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const pool = this.pickPool();
    if (!pool) return;
    const s = this.poolState(pool)!;
    let zeroForOne = rng.next() < 0.5;
    const wallet = this.pickWallet();
    const fraction = [rng.next(), rng.next()];
    const depeg = n >= world.depeg.from && n < world.depeg.to && (pool.token0 === world.depeg.token || pool.token1 === world.depeg.token);
    if (depeg) zeroForOne = pool.token0 === world.depeg.token;
    // A honeypot is only ever bought.
    if (world.tokens[zeroForOne ? pool.token0 : pool.token1]!.kind === 'honeypot') zeroForOne = !zeroForOne;
    const tIn = zeroForOne ? pool.token0 : pool.token1;
    const tOut = zeroForOne ? pool.token1 : pool.token0;
    const concentrated = isConcentrated(pool.family);
    // What the pool holds of the input token, real or virtual (L/√P, L·√P).
    const reserveIn = concentrated ? (zeroForOne ? (s.b * Q96) / s.a : (s.b * s.a) / Q96) : zeroForOne ? s.a : s.b;
    const lo = depeg ? 1e-3 : 1e-5;
    const u = lo * Math.pow(1e-2 / lo, fraction[0]!);
    const sent = (reserveIn * BigInt(Math.max(1, Math.floor(u * 1e9)))) / 1_000_000_000n;
    if (sent === 0n || s.b === 0n) return;
    const taxIn = world.tokens[tIn]!.taxBps;
    const taxOut = world.tokens[tOut]!.taxBps;
    const amountIn = sent - (sent * BigInt(taxIn)) / 10_000n;
    let out: bigint;
    let next: PoolState;
    if (concentrated) {
      const step = concentratedSwap(s as ConcentratedState, zeroForOne, amountIn, pool.feePpm, pool.tickSpacing, pool.family === 'v4');
      if (!step) return; // the input not all spent before the price limit: the router reverts
      out = step.amountOut;
      next = step.state;
    } else {
      const [rIn, rOut] = zeroForOne ? [s.a, s.b] : [s.b, s.a];
      const [dIn, dOut] = [world.tokens[tIn]!.decimals, world.tokens[tOut]!.decimals];
      out = !pool.stable
        ? constantProductOut(amountIn, rIn, rOut, pool.feePpm)
        : pool.family === 'syncswap-stable'
          ? curveStableOut(amountIn, rIn, rOut, dIn, dOut, pool.feePpm, SYNCSWAP_ANN)
          : solidlyStableOut(amountIn, rIn, rOut, dIn, dOut, pool.feePpm);
      if (out >= rOut) return;
      next = zeroForOne ? { a: s.a + amountIn, b: s.b - out } : { a: s.a - out, b: s.b + amountIn };
    }
    if (out <= 0n) return;
    if (movesAsErc20(pool, tIn)) this.fund(wallet, tIn, sent);
    const tx: SimTx = { from: wallet, to: addresses.router, input: '0x38ed1739', logs: [] };
    const L = tx.logs;
    const holder = holderOf(world, pool);
    const payIn = () => {
      if (!movesAsErc20(pool, tIn)) return; // native ETH in: no token moves
      this.transfer(L, tIn, wallet, holder, amountIn);
      if (sent > amountIn) this.transfer(L, tIn, wallet, addresses.taxCollector, sent - amountIn);
    };
    const payOut = () => {
      if (!movesAsErc20(pool, tOut)) return; // native ETH out
      const tax = (out * BigInt(taxOut)) / 10_000n;
      this.transfer(L, tOut, holder, wallet, out - tax);
      if (tax > 0n) this.transfer(L, tOut, holder, addresses.taxCollector, tax);
    };
    writes.set(poolKey(pool.index), next);
    const [amount0, amount1] = zeroForOne ? [amountIn, -out] : [-out, amountIn];
    const router = topic(addressWord(addresses.router));
    if (!concentrated) {
      payIn();
      payOut();
      L.push(this.syncLog(pool, next.a, next.b));
      L.push({
        address: pool.id, topics: [TOPIC0.v2Swap, router, topic(addressWord(wallet))],
        data: data(word(zeroForOne ? amountIn : 0n), word(zeroForOne ? 0n : amountIn), word(zeroForOne ? 0n : out), word(zeroForOne ? out : 0n)),
      });
    } else if (pool.family === 'v4') {
      payIn();
      payOut();
      // The swapper's deltas: negative is paid into the pool.
      L.push({
        address: addresses.poolManager, topics: [TOPIC0.v4Swap, pool.id, router],
        data: data(word(-amount0), word(-amount1), word(next.a), word(next.b), word((next as ConcentratedState).tick), word(pool.feePpm)),
      });
    } else {
      payOut();
      payIn();
      const words = [word(amount0), word(amount1), word(next.a), word(next.b), word((next as ConcentratedState).tick)];
      if (pool.family === 'pancake-v3') words.push(ZERO_WORD, ZERO_WORD);
      L.push({ address: pool.id, topics: [pool.family === 'pancake-v3' ? TOPIC0.pancakeV3Swap : TOPIC0.v3Swap, router, topic(addressWord(wallet))], data: data(...words) });
    }
    txs.push(tx);
    this.swaps.push(pool.index);
  }

  walletTransfer() {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const from = this.pickWallet();
    const pool = world.pools[world.hotPools[rng.int(world.hotPools.length)]!]!;
    const t = rng.next() < 0.5 ? pool.token0 : pool.token1;
    const have = this.balance(t, from);
    if (have === 0n || world.tokens[t]!.kind === 'honeypot') return;
    const to = world.wallets[rng.int(world.wallets.length)]!;
    if (to === from) return;
    const tx: SimTx = { from, to: world.tokens[t]!.address, input: '0xa9059cbb', logs: [] };
    const amount = (have * BigInt(10 + rng.int(90))) / 100n;
    const tax = (amount * BigInt(world.tokens[t]!.taxBps)) / 10_000n;
    this.transfer(tx.logs, t, from, to, amount - tax);
    if (tax > 0n) this.transfer(tx.logs, t, from, addresses.taxCollector, tax);
    txs.push(tx);
  }

  changeLiquidity() {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const pool = world.pools[rng.int(world.pools.length)]!;
    if (pool.createdBlock >= n) return;
    const s = this.poolState(pool)!;
    const provider = this.pickWallet();
    const adding = rng.next() < 0.6;
    const f = BigInt(10 + rng.int(40)); // 1–5 % of the pool, per thousand
    const tx: SimTx = { from: provider, to: addresses.router, input: adding ? '0xe8e33700' : '0xbaa2abde', logs: [] };
    if (isConcentrated(pool.family)) {
      const change = this.rangeChange(s as ConcentratedState, pool, adding, f);
      if (!change) return;
      this.changePosition(tx, pool, provider, change.lower, change.upper, change.delta);
    } else {
      const [a0, a1] = [(s.a * f) / 1000n, (s.b * f) / 1000n];
      if (a0 === 0n || a1 === 0n) return;
      if (adding) {
        this.fund(provider, pool.token0, a0);
        this.fund(provider, pool.token1, a1);
        this.addReserves(tx, pool, provider, a0, a1);
      } else this.removeReserves(tx, pool, provider, a0, a1);
    }
    txs.push(tx);
  }

  /**
   * A liquidity change of a concentrated pool. Adding (f per thousand of the active liquidity): to an
   * existing position (40 %) or to a new range, around the price (half of them), entirely above it
   * or entirely below it (a quarter each: only one token deposited, the active liquidity unchanged).
   * Removing: from a position drawn among the pool's, f per thousand of the full-range base, 10–50 %
   * of a narrower one or (a quarter of the time) all of it.
   */
  rangeChange(s: ConcentratedState, pool: Pool, adding: boolean, f: bigint): { lower: number; upper: number; delta: bigint } | null {
    const { rng } = this;
    const spacing = pool.tickSpacing;
    const { lower: min, upper: max } = fullRange(spacing);
    const positions = s.book.positions;
    if (adding) {
      const delta = (s.b * f) / 1000n;
      if (delta === 0n) return null;
      if (positions.length > 0 && rng.next() < 0.4) {
        const p = positions[rng.int(positions.length)]!;
        return { lower: p.lower, upper: p.upper, delta };
      }
      const c = Math.floor(s.tick / spacing);
      const width = 1 + rng.int(40);
      const where = rng.next();
      let lower = (c - (width >> 1)) * spacing;
      if (where < 0.25) lower = (c + 1 + rng.int(10)) * spacing; // above the price: token0 only
      else if (where < 0.5) lower = (c - rng.int(10) - width) * spacing; // below it: token1 only
      const upper = Math.min(max, lower + (width + (where >= 0.5 ? 1 : 0)) * spacing);
      lower = Math.max(min, lower);
      return lower < upper ? { lower, upper, delta } : null;
    }
    if (positions.length === 0) return null;
    const p = positions[rng.int(positions.length)]!;
    const base = p.lower === min && p.upper === max;
    const delta = base ? (p.liquidity * f) / 1000n : rng.next() < 0.25 ? p.liquidity : (p.liquidity * BigInt(100 + rng.int(400))) / 1000n;
    return delta > 0n ? { lower: p.lower, upper: p.upper, delta: -delta } : null;
  }

  ownerMint() {
    const { world, addresses, profile, rng, txs, writes, n } = this;
    const token = world.tokens.find((t) => t.kind === 'mintable');
    if (!token || token.index === WETH) return;
    const tx: SimTx = { from: addresses.owner, to: token.address, input: '0x40c10f19', logs: [] };
    this.transfer(tx.logs, token.index, ZERO, addresses.owner, token.supply / 1000n);
    txs.push(tx);
  }
}

/**
 * A concentrated pool's first positions, aligned to its tick spacing and drawn from (seed, pool):
 * a full-range base holding half of the pool's first liquidity, ranges around the first price
 * about ±1 %, ±10 % and ±50 % wide (twice, once and half the base's liquidity), and one range
 * entirely above or below the price (a quarter of it; only one token deposited).
 */
export function initialPositions(world: World, pool: Pool, tick: number): Position[] {
  const spacing = pool.tickSpacing;
  const { lower: min, upper: max } = fullRange(spacing);
  const L = pool.initial.b / 2n;
  const rng = new Rng(hash32(world.seed, 0x7a9e, pool.index));
  const positions: Position[] = [{ lower: min, upper: max, liquidity: L }];
  const c = Math.floor(tick / spacing);
  const ranges: [number, number, number][] = [[100, 2, 1], [1000, 1, 1], [4000, 1, 2]];
  for (const [ticks, times, per] of ranges) {
    const half = Math.max(1, Math.round((ticks * (0.5 + rng.next())) / spacing));
    const lower = Math.max(min, (c - half) * spacing);
    const upper = Math.min(max, (c + 1 + half) * spacing);
    if (lower < upper) positions.push({ lower, upper, liquidity: (L * BigInt(times)) / BigInt(per) });
  }
  const width = 1 + Math.round(500 / spacing) + rng.int(10);
  const gap = rng.int(5);
  const [lower, upper] = rng.next() < 0.5 ? [(c + 1 + gap) * spacing, (c + 1 + gap + width) * spacing] : [(c - gap - width) * spacing, (c - gap) * spacing];
  if (lower >= min && upper <= max) positions.push({ lower, upper, liquidity: L / 2n });
  return positions.filter((p) => p.liquidity > 0n);
}
