// The chain sizes the simulator makes (issue 34's defaults). A profile fixes what exists and how
// busy it is; the seed fixes every choice within it.

export type Profile = {
  name: string;
  /** ERC-20 tokens (about 10 % spam-looking); only tokens in a pool ever appear in a log. */
  tokens: number;
  pools: number;
  wallets: number;
  /** Blocks before the trading window over which the pools are created with their first liquidity. */
  creationBlocks: number;
  /** Blocks of trading after them (the head is the last one). */
  tradingBlocks: number;
  /** Mean swaps per 43,200 blocks of trading. */
  swapsPerDay: number;
  /** Share of the pools (the hot set) that carries `hotShare` of the swaps. */
  hotPools: number;
  hotShare: number;
  /** Mean wallet-to-wallet transfers and liquidity changes per block of trading. */
  transfersPerBlock: number;
  liquidityPerBlock: number;
  /** A USD feed round every this many blocks (trading window) and this many before it. */
  feedEvery: number;
  feedEveryBefore: number;
  /**
   * A feed round every this many blocks mined live, past the head the chain is built to (default
   * feedEvery): a bench that follows the head for minutes meets rounds it would otherwise wait an hour for.
   */
  liveFeedEvery?: number;
  /** Unix seconds of block 0. */
  genesisTime: number;
};

const base = {
  hotPools: 0.01,
  hotShare: 0.8,
  transfersPerBlock: 0.5,
  liquidityPerBlock: 0.02,
  feedEvery: 1800,
  feedEveryBefore: 43_200,
  genesisTime: 1_700_000_000,
};

/** Two years of blocks at about 2 s. */
const TWO_YEARS = 31_536_000;
const linea = { tokens: 30_000, pools: 20_000, wallets: 200_000, creationBlocks: TWO_YEARS, swapsPerDay: 150_000 };

export const PROFILES: Record<string, Profile> = {
  'demo-size': {
    ...base, name: 'demo-size', tokens: 60, pools: 64, wallets: 400, creationBlocks: 3_000, tradingBlocks: 2_400, swapsPerDay: 12_000,
    hotPools: 0.05, feedEvery: 300, feedEveryBefore: 1_000,
  },
  'linea-day': { ...base, ...linea, name: 'linea-day', tradingBlocks: 43_200 },
  'linea-week': { ...base, ...linea, name: 'linea-week', tradingBlocks: 302_400 },
  'linea-month': { ...base, ...linea, name: 'linea-month', tradingBlocks: 1_296_000 },
};

export function profileNamed(name: string, overrides: Partial<Profile> = {}): Profile {
  const profile = PROFILES[name];
  if (!profile) throw new Error(`unknown profile ${JSON.stringify(name)}; profiles: ${Object.keys(PROFILES).join(', ')}`);
  return { ...profile, ...overrides };
}
