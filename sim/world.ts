// What exists on the simulated chain, drawn once from (seed, profile): tokens (stablecoins, the
// wrapped native token, spam-looking, honeypot, taxed, upgradeable and owner-mintable ones), wallets,
// the factories of every family, and the pools with their creation blocks and first liquidity.
import { AbiCoder, keccak256 } from 'ethers';
import { fullRange, isqrt, sqrtAtTick } from './math.ts';
import { hash32, hashHex, Rng } from './prng.ts';
import type { Profile } from './profiles.ts';

export type Family = 'v2' | 'solidly' | 'etherex-legacy' | 'syncswap-classic' | 'syncswap-stable' | 'v3' | 'pancake-v3' | 'algebra' | 'v4';
export const FAMILIES: readonly Family[] = ['v2', 'solidly', 'etherex-legacy', 'syncswap-classic', 'syncswap-stable', 'v3', 'pancake-v3', 'algebra', 'v4'];
/** Share of the pools per family (sums to 1). */
const FAMILY_SHARE: Record<Family, number> = {
  v2: 0.25, solidly: 0.1, 'etherex-legacy': 0.05, 'syncswap-classic': 0.08, 'syncswap-stable': 0.02, v3: 0.2, 'pancake-v3': 0.1, algebra: 0.1, v4: 0.1,
};
export const isConcentrated = (f: Family) => f === 'v3' || f === 'pancake-v3' || f === 'algebra' || f === 'v4';

export type TokenKind = 'weth' | 'stable' | 'normal' | 'spam' | 'honeypot' | 'taxed' | 'upgradeable' | 'mintable';

export type Token = {
  index: number;
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  kind: TokenKind;
  /** Reference USD price of one whole token (sets the pools' first reserves). */
  usd: number;
  /** Minted to the treasury at `mintBlock`. */
  supply: bigint;
  mintBlock: number;
  /** owner() answer; null: the token has no owner() (it reverts). */
  owner: string | null;
  taxBps: number;
  /** EIP-1967 implementation of an upgradeable token. */
  implementation: string | null;
};

export type Pool = {
  index: number;
  /** The pool's address, or for Uniswap V4 its 32-byte id. */
  id: string;
  family: Family;
  factory: string;
  token0: number;
  token1: number;
  stable: boolean;
  feePpm: number;
  tickSpacing: number;
  hooks: string;
  createdBlock: number;
  /** First liquidity: reserves, or for concentrated pools √P and L (twice the full-range base position; see initialPositions in blockGen.ts). */
  initial: { a: bigint; b: bigint };
  /** Uniswap V4: keccak256(id, 6), the pool's state slot in the PoolManager. */
  v4Slot: bigint | null;
  /**
   * Uniswap V4 with the native currency (address 0) as currency0, paired with `token1`: `token0`
   * is then the wrapped native token (WETH), which the model prices it as, but no WETH moves.
   */
  native0: boolean;
};

export type World = {
  seed: number;
  profile: Profile;
  tokens: Token[];
  pools: Pool[];
  /** Pool indices by creation block. */
  poolsAt: Map<number, number[]>;
  /** Token indices by mint block. */
  tokensAt: Map<number, number>;
  hotPools: number[];
  wallets: string[];
  factories: Record<Family, string>;
  addresses: {
    treasury: string; router: string; taxCollector: string; owner: string; proxyAdmin: string; multicall3: string;
    poolManager: string; feed: string; aggregator: string;
  };
  /** First and last block of trading. */
  tradingFrom: number;
  head: number;
  /** token address → index; pool address (not V4 ids) → index; V4 slot (hex) → [pool, offset]. */
  tokenByAddress: Map<string, number>;
  /** Every address that can hold a token, by a small id (the balance keys' holder part). */
  holders: string[];
  holderId: Map<string, number>;
  poolByAddress: Map<string, number>;
  v4BySlot: Map<string, { pool: number; offset: number }>;
  depeg: { token: number; from: number; to: number };
};

export const WETH = 0;
export const STABLES = [1, 2, 3];
export const SYNCSWAP_ANN = 2000n;
export const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11';
/** Uniswap V4's native currency. */
export const NATIVE = '0x0000000000000000000000000000000000000000';

/** The token of `pool` at index `t` moves as ERC-20 transfers (not the native side of a V4 pool). */
export const movesAsErc20 = (pool: Pool, t: number) => !(pool.native0 && t === pool.token0);

const coder = AbiCoder.defaultAbiCoder();

function units(whole: number, decimals: number): bigint {
  return (BigInt(Math.round(whole * 1e6)) * 10n ** BigInt(decimals)) / 1_000_000n;
}

const SPAM_NAMES = ['Claim at lxp-rewards.xyz', 'Visit usdc-airdrop.com', 'LINEA Airdrop Voucher', '$ Free Drop', 'Reward Token Claim www.linea-gift.net'];
const LOOKALIKES = ['USDС', 'WΕTH', 'USDТ', 'LlNEA'];

export function createWorld(seed: number, profile: Profile): World {
  const addr = (kind: number, i: number) => '0x' + hashHex(40, seed, kind, i);
  const rng = new Rng(hash32(seed, 0x3031d));
  const addresses = {
    treasury: addr(1, 0), router: addr(1, 1), taxCollector: addr(1, 2), owner: addr(1, 3), proxyAdmin: addr(1, 4), multicall3: MULTICALL3,
    poolManager: addr(1, 5), feed: addr(1, 6), aggregator: addr(1, 7),
  };
  const factories = Object.fromEntries(FAMILIES.map((f, i) => [f, addr(2, i)])) as Record<Family, string>;
  factories.v4 = addresses.poolManager;

  // Tokens: the wrapped native token, three stablecoins, one of each special kind, then ~10 % spam.
  const tokens: Token[] = [];
  const special: TokenKind[] = ['honeypot', 'taxed', 'upgradeable', 'mintable'];
  for (let i = 0; i < profile.tokens; i++) {
    let kind: TokenKind = i === WETH ? 'weth' : STABLES.includes(i) ? 'stable' : i - 4 < special.length ? special[i - 4]! : rng.next() < 0.1 ? 'spam' : 'normal';
    let [name, symbol, decimals, usd] = [`Sim Token ${i}`, `SIM${i}`, [18, 18, 18, 6, 8, 9][rng.int(6)]!, Math.exp(Math.log(1e-6) + rng.next() * Math.log(1e9))];
    if (kind === 'weth') [name, symbol, decimals, usd] = ['Wrapped Ether', 'WETH', 18, 3000];
    if (i === 1) [name, symbol, decimals, usd] = ['USD Coin', 'USDC', 6, 1];
    if (i === 2) [name, symbol, decimals, usd] = ['Tether USD', 'USDT', 6, 1];
    if (i === 3) [name, symbol, decimals, usd] = ['Dai Stablecoin', 'DAI', 18, 1];
    if (kind === 'spam') {
      const lookalike = rng.next() < 0.4;
      symbol = lookalike ? LOOKALIKES[rng.int(LOOKALIKES.length)]! : `CLAIM${i}`;
      name = lookalike ? symbol : SPAM_NAMES[rng.int(SPAM_NAMES.length)]!;
    }
    if (kind !== 'weth' && kind !== 'stable' && kind !== 'normal' && kind !== 'spam') [name, symbol] = [`Sim ${kind} ${i}`, `${kind.slice(0, 4).toUpperCase()}${i}`];
    const supply = units(Math.max(1e9, 1e11 / Math.max(usd, 1e-3)), decimals) * 1000n;
    tokens.push({
      index: i, address: addr(3, i), name, symbol, decimals, kind, usd, supply, mintBlock: 1 + i,
      owner: kind === 'mintable' || kind === 'taxed' || kind === 'honeypot' ? addresses.owner : kind === 'stable' ? '0x0000000000000000000000000000000000000000' : null,
      taxBps: kind === 'taxed' ? 500 : 0,
      implementation: kind === 'upgradeable' ? addr(4, i) : null,
    });
  }
  tokens[1]!.implementation = addr(4, 1); // USDC is a proxy, as on Linea
  const tokensAt = new Map(tokens.map((t) => [t.mintBlock, t.index]));

  // Pools: created uniformly over the creation blocks after the tokens' mints; families by share.
  const firstPoolBlock = profile.tokens + 10;
  const span = profile.creationBlocks - firstPoolBlock;
  if (span < profile.pools) throw new Error(`profile ${profile.name}: creationBlocks too few for its pools`);
  const createdBlocks = Array.from({ length: profile.pools }, (_, i) => firstPoolBlock + Math.floor(((i + rng.next() * 0.9) * span) / profile.pools));
  const familyOf = (i: number): Family => {
    if (i < FAMILIES.length * 2) return FAMILIES[i % FAMILIES.length]!; // every family early, twice
    let u = rng.next();
    for (const f of FAMILIES) if ((u -= FAMILY_SHARE[f]) < 0) return f;
    return 'v2';
  };
  const pools: Pool[] = [];
  const v4BySlot = new Map<string, { pool: number; offset: number }>();
  const poolByAddress = new Map<string, number>();
  const anchors = [WETH, ...STABLES];
  for (let i = 0; i < profile.pools; i++) {
    const family = familyOf(i);
    const stableFamily = family === 'syncswap-stable' || ((family === 'solidly' || family === 'etherex-legacy') && rng.next() < 0.3);
    let a: number;
    let b: number;
    if (stableFamily) {
      a = STABLES[rng.int(3)]!;
      b = STABLES.filter((s) => s !== a)[rng.int(2)]!;
    } else {
      // Every token gets its first pool against an anchor; later pools pair anchors and random tokens.
      const t = i < profile.tokens ? i : 4 + rng.int(profile.tokens - 4);
      a = i < 4 ? anchors[(i + 1) % 4]! : t;
      b = i < 4 ? WETH : anchors[rng.next() < 0.6 ? 0 : 1 + rng.int(3)]!;
      if (a === b) b = WETH === a ? 1 : WETH;
    }
    // Half of the V4 pools against WETH hold native ETH instead (a hash, not the stream: the other
    // draws stay what they were). address(0) sorts first: WETH's side is currency0.
    const native0 = family === 'v4' && (a === WETH || b === WETH) && hash32(seed, 0x4e47, i) % 2 === 0;
    const [t0, t1] = native0 ? (a === WETH ? [a, b] : [b, a]) : tokens[a]!.address < tokens[b]!.address ? [a, b] : [b, a];
    const fee = family === 'v3' || family === 'pancake-v3' || family === 'v4' ? [100, 500, 3000, 10000][rng.int(4)]! : family === 'algebra' ? 500 : stableFamily ? 400 : family === 'solidly' ? 2000 : 3000;
    const tickSpacing = fee === 100 ? 1 : fee === 500 ? 10 : fee === 3000 ? 60 : fee === 10000 ? 200 : 60;
    const hooks = family === 'v4' && rng.next() < 0.15 ? '0x' + hashHex(38, seed, 5, i) + (rng.next() < 0.5 ? '0c' : '80') : '0x0000000000000000000000000000000000000000';
    // First liquidity: heavy-tailed USD depth, split evenly at the reference prices.
    const usd = Math.exp(Math.log(200) + rng.next() * Math.log(2e4)) * (rng.next() < 0.05 ? 100 : 1);
    const T0 = tokens[t0]!;
    const T1 = tokens[t1]!;
    const r0 = units(usd / 2 / T0.usd, T0.decimals) + 1000n;
    const r1 = units(usd / 2 / T1.usd, T1.decimals) + 1000n;
    let initial = { a: r0, b: r1 };
    if (isConcentrated(family)) {
      const sqrtP = isqrt((r1 << 192n) / r0);
      const { lower, upper } = fullRange(tickSpacing);
      const clamp = sqrtP < sqrtAtTick(lower) + 1n ? sqrtAtTick(lower) + 1n : sqrtP > sqrtAtTick(upper) - 1n ? sqrtAtTick(upper) - 1n : sqrtP;
      initial = { a: clamp, b: isqrt(r0 * r1) };
    }
    let id = addr(6, i);
    let v4Slot: bigint | null = null;
    if (family === 'v4') {
      id = keccak256(coder.encode(['address', 'address', 'uint24', 'int24', 'address'], [native0 ? NATIVE : T0.address, T1.address, fee, tickSpacing, hooks])).toLowerCase();
      v4Slot = BigInt(keccak256(coder.encode(['bytes32', 'uint256'], [id, 6n])));
      for (const offset of [0, 3]) v4BySlot.set('0x' + (v4Slot + BigInt(offset)).toString(16).padStart(64, '0'), { pool: i, offset });
    } else poolByAddress.set(id, i);
    pools.push({
      index: i, id, family, factory: factories[family], token0: t0, token1: t1, stable: stableFamily, feePpm: fee, tickSpacing, hooks,
      createdBlock: createdBlocks[i]!, initial, v4Slot, native0,
    });
  }
  const poolsAt = new Map<number, number[]>();
  for (const p of pools) poolsAt.set(p.createdBlock, [...(poolsAt.get(p.createdBlock) ?? []), p.index]);
  const hotCount = Math.max(1, Math.round(profile.pools * profile.hotPools));
  const hotPools = Array.from({ length: hotCount }, (_, k) => Math.floor((k * profile.pools) / hotCount)).filter((i) => !pools[i]!.stable || i < 8);
  const tradingFrom = profile.creationBlocks;
  const head = profile.creationBlocks + profile.tradingBlocks - 1;
  const wallets = Array.from({ length: profile.wallets }, (_, i) => addr(7, i));
  const holders = [...new Set([...Object.values(addresses), ...pools.filter((p) => p.family !== 'v4').map((p) => p.id), ...wallets])];
  return {
    holders, holderId: new Map(holders.map((h, i) => [h, i])),
    seed, profile, tokens, pools, poolsAt, tokensAt, hotPools, wallets, factories, addresses, tradingFrom, head,
    tokenByAddress: new Map(tokens.map((t) => [t.address, t.index])), poolByAddress, v4BySlot,
    depeg: { token: 3, from: tradingFrom + Math.floor(profile.tradingBlocks * 0.5), to: tradingFrom + Math.floor(profile.tradingBlocks * 0.7) },
  };
}
