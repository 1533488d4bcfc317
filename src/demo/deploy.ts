// Deploys the demo world (tokens, DEXes, Multicall3, funded pools, funded and approved traders)
// in a handful of hand-mined blocks, so it takes well under a second of wall time.
import { AbiCoder, getAddress, getCreate2Address, keccak256, solidityPackedKeccak256 } from 'ethers';
import { loadContract, MULTICALL3_ADDRESS } from '../chain/contracts.ts';
import type { DemoChain } from './chain.ts';
import { DEMO_TAX_BPS, ETH_PRICE_USD, POOLS, TOKENS, tokenSpec, type DemoProtocol, type PoolSpec, type TokenKind, type TokenSpec } from './demoNetwork.ts';
import { seedFamilyPools, type FamilyFactories } from './seedFamilyPools.ts';
import { seedV4Pools } from './seedV4Pools.ts';
import { createDemoClient, type DemoClient } from './client.ts';
import { isqrt, sortTokens, toUnits } from './units.ts';

export interface DemoTokenInfo {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  /** Initial total supply in base units (decimal string; WETH grows with deposits). */
  totalSupply: string;
  kind: TokenKind;
  /** The contract behind the token when it is not a plain DemoToken (demoNetwork.ts). */
  contract?: TokenSpec['contract'];
  /** Reference USD price at the start of the history and its daily drift (simulation inputs, not truth). */
  referencePriceUsd: number;
  trendPerDay: number;
}

export interface DemoPoolInfo {
  address: string;
  protocol: DemoProtocol;
  /** Solidly and SyncSwap pools on their stable invariant. */
  stable: boolean;
  factory: string;
  /** Spender that traders approve: the V2 router, or the pool itself. */
  spender: string;
  token0: string;
  token1: string;
  /** Base/quote as listed in the catalog (base is the token being priced). */
  base: string;
  quote: string;
  symbol: string;
  /** In hundredths of a bip: 3000 = 0.3 %. */
  fee: number;
  tickSpacing: number | null;
  role: 'primary' | 'secondary' | 'dust';
  /** Uniswap V4: the pool's key (its id is `address`) and whether token0 stands for the native currency. */
  v4?: { key: V4PoolKey; native0: boolean };
}

/** Uniswap V4's pool key as the PoolManager takes it. */
export type V4PoolKey = { currency0: string; currency1: string; fee: number; tickSpacing: number; hooks: string };

export interface DemoAccounts {
  deployer: string;
  liquidityProvider: string;
  traders: string[];
  arbitrageur: string;
  treasury: string;
  ecosystem: string;
  burners: string[];
  /** Posts the ETH/USD feed's answers. */
  reporter: string;
  /** Admin of the demo's upgradeable proxies (USDC, USDT, UPGD); their owner is the deployer. */
  proxyAdmin: string;
}

export interface DemoDeployment {
  chainId: number;
  /** First block containing demo contracts: a good indexer start block. */
  startBlock: number;
  /** Last block of the deployment (pools funded, traders approved). */
  deployedBlock: number;
  multicall3: string;
  weth: string;
  /** The demo's Chainlink-style ETH/USD feed (DemoUsdFeed): the USD anchor; the market's reporter posts to it. */
  usdFeed: string;
  stablecoins: string[];
  /** Every regular ERC-20 (stablecoins, WETH, network token, standard, dust-only and spam tokens). */
  tokens: DemoTokenInfo[];
  networkToken: { address: string; treasury: string; ecosystem: string; burners: string[] };
  v2Factories: string[];
  v2Routers: string[];
  v3Factories: string[];
  /** Factories of the other DEX families. */
  familyFactories: FamilyFactories;
  pools: DemoPoolInfo[];
  hostileTokens: {
    /** name() reverts. */
    revertingName: string;
    /** name()/symbol() return bytes32 ("Maker Classic"/"MKRC"); also has a real WETH pool. */
    bytes32Metadata: string;
    /** decimals() = 255. */
    maxDecimals: string;
    /** No decimals() function. */
    noDecimals: string;
  };
  spamToken: string;
  /** Token whose only pool is a dust pool: it must end up without a price. */
  dustOnlyToken: string;
  accounts: DemoAccounts;
}

const MAX_UINT = 2n ** 256n - 1n;
const DEAD_ADDRESS = '0x000000000000000000000000000000000000dEaD';
const FULL_RANGE = [-887220, 887220] as const;
const V3_TICK_SPACING: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 };
/** The demo hook keeps 0.3 % of every swap's input. */
const V4_HOOK_TAKE_BPS = 30n;
/** Low 14 bits 0x0088: beforeSwap (1 << 7) and beforeSwapReturnDelta (1 << 3), as Hooks.sol reads them. */
export const V4_HOOK_ADDRESS = getAddress('0x4444000000000000000000000000000000000088');

export async function deployDemo(chain: DemoChain): Promise<DemoDeployment> {
  const c = await createDemoClient(chain);
  const a = c.accounts.map((x) => getAddress(x));
  const at = (i: number) => a[i] as string;
  const accounts: DemoAccounts = {
    deployer: at(0),
    liquidityProvider: at(0),
    treasury: at(1),
    ecosystem: at(2),
    traders: [at(3), at(4), at(5), at(6)],
    arbitrageur: at(7),
    burners: [at(8), at(9), at(10)],
    reporter: at(11),
    proxyAdmin: at(12),
  };
  const deployer = accounts.deployer;
  await c.setAutomine(false);
  try {
    const startBlock = (await c.latestBlock()).number + 1;
    // Canonical Multicall3 address, as on Linea: runtime code placed directly, no deployment tx.
    await c.request('hardhat_setCode', [MULTICALL3_ADDRESS, loadContract('Multicall3').deployedBytecode]);

    const deployed = new Map<string, string>();
    const queue = async (label: string, fn: () => Promise<string>) => deployed.set(label, await fn());
    for (const t of TOKENS) {
      if (t.symbol === 'WETH') await queue(t.symbol, () => c.deploy(deployer, 'WETH9', []));
      else if (t.symbol === 'LINEA') {
        const total = t.supply * 10n ** 18n;
        const treasuryAmount = (total * 15n) / 100n;
        const ecosystemAmount = (total * 45n) / 100n;
        await queue(t.symbol, () =>
          c.deploy(deployer, 'NetworkToken', [t.name, t.symbol, accounts.treasury, accounts.ecosystem, treasuryAmount, ecosystemAmount, total - treasuryAmount - ecosystemAmount]),
        );
      } else if (t.symbol === 'MKRC') await queue(t.symbol, () => c.deploy(deployer, 'Bytes32MetadataToken', [t.supply * 10n ** 18n, deployer]));
      else if (t.contract) await queue(t.symbol, () => deployContractCase(c, t, deployer));
      else await queue(t.symbol, () => c.deploy(deployer, 'DemoToken', [t.name, t.symbol, t.decimals, t.supply * 10n ** BigInt(t.decimals), deployer]));
    }
    // Implementations behind the proxies (deployed with the routers, once these have addresses).
    await queue('fiatImplementation', () => c.deploy(deployer, 'DemoFiatToken', [], 3_000_000n));
    await queue('ownedImplementation', () => c.deploy(deployer, 'DemoOwnedToken', [], 3_000_000n));
    await queue('revertingName', () => c.deploy(deployer, 'RevertingNameToken', [10n ** 24n, deployer]));
    await queue('maxDecimals', () => c.deploy(deployer, 'MaxDecimalsToken', [10n ** 30n, deployer]));
    await queue('noDecimals', () => c.deploy(deployer, 'NoDecimalsToken', [10n ** 21n, deployer]));
    await queue('v2f0', () => c.deploy(deployer, 'UniswapV2Factory', []));
    await queue('v2f1', () => c.deploy(deployer, 'UniswapV2Factory', []));
    await queue('v3f0', () => c.deploy(deployer, 'DemoV3Factory', []));
    await queue('solidly', () => c.deploy(deployer, 'DemoSolidlyFactory', [], 6_000_000n));
    await queue('pancakeV3', () => c.deploy(deployer, 'DemoPancakeV3Factory', [], 8_000_000n));
    await queue('algebra', () => c.deploy(deployer, 'DemoAlgebraFactory', [], 8_000_000n));
    await queue('syncSwapClassic', () => c.deploy(deployer, 'DemoSyncSwapFactory', [false], 6_000_000n));
    await queue('syncSwapStable', () => c.deploy(deployer, 'DemoSyncSwapFactory', [true], 6_000_000n));
    await queue('uniswapV4', () => c.deploy(deployer, 'DemoPoolManager', [], 6_000_000n));
    await queue('v4Hook', () => c.deploy(deployer, 'DemoSwapDeltaHook', [V4_HOOK_TAKE_BPS], 1_000_000n));
    let receipts = await c.mine();
    const addr = (label: string) => {
      const r = receipts.get(deployed.get(label) ?? '');
      if (!r?.contractAddress) throw new Error(`no address for ${label}`);
      return getAddress(r.contractAddress);
    };
    const proxied = TOKENS.filter((t) => PROXY_IMPLEMENTATION[t.contract ?? ''] !== undefined);
    const token = new Map<string, string>(TOKENS.filter((t) => !proxied.includes(t)).map((t) => [t.symbol, addr(t.symbol)]));
    const tok = (symbol: string) => token.get(symbol) as string;
    const hostileTokens = { revertingName: addr('revertingName'), bytes32Metadata: tok('MKRC'), maxDecimals: addr('maxDecimals'), noDecimals: addr('noDecimals') };
    const v2Factories = [addr('v2f0'), addr('v2f1')];
    const v3Factories = [addr('v3f0')];
    const familyFactories: FamilyFactories = {
      solidly: addr('solidly'), pancakeV3: addr('pancakeV3'), algebra: addr('algebra'),
      syncSwapClassic: addr('syncSwapClassic'), syncSwapStable: addr('syncSwapStable'), uniswapV4: addr('uniswapV4'),
      v4Hook: V4_HOOK_ADDRESS,
    };
    // Uniswap V4 reads a hook's permissions from its address: its code goes where the address grants them.
    await c.request('hardhat_setCode', [V4_HOOK_ADDRESS, await c.request<string>('eth_getCode', [addr('v4Hook'), 'latest'])]);
    const routerHashes = [];
    for (const f of v2Factories) routerHashes.push(await c.deploy(deployer, 'UniswapV2Router', [f], 3_000_000n));
    const proxyHashes = new Map<string, string>();
    for (const t of proxied) {
      const implementation = addr(PROXY_IMPLEMENTATION[t.contract!]!);
      const init = c.iface('DemoFiatToken').encodeFunctionData('initialize', [t.name, t.symbol, t.decimals, t.supply * 10n ** BigInt(t.decimals), deployer, deployer]);
      proxyHashes.set(t.symbol, await c.deploy(deployer, 'DemoUpgradeableProxy', [implementation, accounts.proxyAdmin, init, t.contract === 'fiat-zeppelinos'], 1_000_000n));
    }
    const feedHash = await c.deploy(deployer, 'DemoUsdFeed', ['ETH / USD', accounts.reporter, BigInt(ETH_PRICE_USD) * 10n ** 8n], 1_000_000n);
    // Wrap ether for the LP and every trader.
    await c.send(deployer, tok('WETH'), 'WETH9', 'deposit', [], { value: 100_000n * 10n ** 18n });
    for (const t of [...accounts.traders, accounts.arbitrageur]) await c.send(t, tok('WETH'), 'WETH9', 'deposit', [], { value: 200_000n * 10n ** 18n });
    receipts = await c.mine();
    for (const [symbol, hash] of proxyHashes) token.set(symbol, getAddress(receipts.get(hash)?.contractAddress ?? ''));
    const v2Routers = routerHashes.map((h) => getAddress(receipts.get(h)?.contractAddress ?? ''));
    const usdFeed = getAddress(receipts.get(feedHash)?.contractAddress ?? '');

    const pools = await seedPools(c, deployer, tok, v2Factories, v2Routers, v3Factories);
    pools.push(...(await seedFamilyPools(c, deployer, tok, familyFactories, v3Factories[0] as string)));
    pools.push(...(await seedV4Pools(c, deployer, tok, familyFactories)));
    // The honeypot and the taxed token learn their pools (as such tokens' owners register their pairs).
    for (const p of pools) {
      const spec = TOKENS.find((t) => tok(t.symbol) === p.base);
      if (spec?.contract === 'honeypot' || spec?.contract === 'tax') await c.send(deployer, p.base, 'DemoHoneypotToken', 'setPool', [p.address], { gas: 80_000n });
    }
    await fundAccounts(c, accounts, tok, pools);
    for (const t of TOKENS) {
      if (t.burnedShare) await c.send(deployer, tok(t.symbol), 'DemoToken', 'transfer', [DEAD_ADDRESS, (t.supply * 10n ** BigInt(t.decimals) * BigInt(Math.round(t.burnedShare * 1000))) / 1000n], { gas: 80_000n });
    }
    await c.mine();
    const deployedBlock = (await c.latestBlock()).number;

    const tokens: DemoTokenInfo[] = TOKENS.map((t) => ({
      address: tok(t.symbol),
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      totalSupply: (t.symbol === 'WETH' ? 900_000n * 10n ** 18n : t.supply * 10n ** BigInt(t.decimals)).toString(),
      kind: t.kind,
      ...(t.contract ? { contract: t.contract } : {}),
      referencePriceUsd: t.priceUsd,
      trendPerDay: t.trendPerDay,
    }));
    return {
      chainId: chain.chainId,
      startBlock,
      deployedBlock,
      multicall3: MULTICALL3_ADDRESS,
      weth: tok('WETH'),
      usdFeed,
      stablecoins: TOKENS.filter((t) => t.kind === 'stablecoin').map((t) => tok(t.symbol)),
      tokens,
      networkToken: { address: tok('LINEA'), treasury: accounts.treasury, ecosystem: accounts.ecosystem, burners: accounts.burners },
      v2Factories,
      v2Routers,
      v3Factories,
      familyFactories,
      pools,
      hostileTokens,
      spamToken: tok('CLAIM'),
      dustOnlyToken: tok('DUST'),
      accounts,
    };
  } finally {
    await c.setAutomine(true);
  }
}

/** The implementation each proxied kind of token runs (deployed once, shared by its proxies). */
const PROXY_IMPLEMENTATION: Record<string, string | undefined> = {
  'fiat-zeppelinos': 'fiatImplementation',
  'fiat-eip1967': 'fiatImplementation',
  upgradeable: 'ownedImplementation',
};

/** The tokens of the contract-check cases that are not proxies; proxies are deployed after their implementation. */
function deployContractCase(c: DemoClient, t: TokenSpec, deployer: string): Promise<string> {
  const supply = t.supply * 10n ** BigInt(t.decimals);
  if (t.contract === 'honeypot') return c.deploy(deployer, 'DemoHoneypotToken', [t.name, t.symbol, t.decimals, supply, deployer], 2_000_000n);
  if (t.contract === 'tax') return c.deploy(deployer, 'DemoTaxToken', [t.name, t.symbol, t.decimals, supply, deployer, DEMO_TAX_BPS], 2_000_000n);
  if (t.contract === 'mintable') return c.deploy(deployer, 'DemoMintableToken', [t.name, t.symbol, t.decimals, supply, deployer], 2_000_000n);
  // Proxied tokens: a placeholder so every catalog entry is queued in order; replaced by the proxy.
  return Promise.resolve('');
}

// Creates every catalog pool with initial liquidity at the reference prices.
async function seedPools(
  c: DemoClient,
  lp: string,
  tok: (s: string) => string,
  v2Factories: string[],
  v2Routers: string[],
  v3Factories: string[],
): Promise<DemoPoolInfo[]> {
  const pools: DemoPoolInfo[] = [];
  const approved = new Set<string>();
  const approve = async (token: string, spender: string) => {
    if (approved.has(`${token}:${spender}`)) return;
    approved.add(`${token}:${spender}`);
    await c.send(lp, token, 'DemoToken', 'approve', [spender, MAX_UINT], { gas: 80_000n });
  };
  for (const p of POOLS) {
    if (p.protocol !== 'uniswap-v2' && p.protocol !== 'uniswap-v3') continue;
    if (p.far) continue;
    const base = tok(p.base);
    const quote = tok(p.quote);
    const [amountBase, amountQuote] = poolAmounts(p);
    const [token0, token1] = sortTokens(base, quote);
    const [amount0, amount1] = token0 === base ? [amountBase, amountQuote] : [amountQuote, amountBase];
    let address: string;
    let spender: string;
    let factory: string;
    if (p.protocol === 'uniswap-v2') {
      factory = v2Factories[p.factory] as string;
      spender = v2Routers[p.factory] as string;
      address = getCreate2Address(factory, solidityPackedKeccak256(['address', 'address'], [token0, token1]), keccak256(loadContract('UniswapV2Pair').bytecode));
      await approve(base, spender);
      await approve(quote, spender);
      await c.send(lp, spender, 'UniswapV2Router', 'addLiquidity', [base, quote, amountBase, amountQuote, 0n, 0n, lp, MAX_UINT], { gas: 3_500_000n });
    } else {
      factory = v3Factories[p.factory] as string;
      const tickSpacing = V3_TICK_SPACING[p.fee] ?? 60;
      const initCode = loadContract('DemoV3Pool').bytecode + AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24', 'int24'], [token0, token1, p.fee, tickSpacing]).slice(2);
      const salt = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [token0, token1, p.fee]));
      address = getCreate2Address(factory, salt, keccak256(initCode));
      spender = address;
      await c.send(lp, factory, 'DemoV3Factory', 'createPool', [base, quote, p.fee], { gas: 3_500_000n });
      // price = token1/token0 in base units; x*y = L^2 for the full-range virtual reserves.
      await c.send(lp, address, 'DemoV3Pool', 'initialize', [isqrt((amount1 << 192n) / amount0)], { gas: 200_000n });
      await approve(base, spender);
      await approve(quote, spender);
      const liquidity = (isqrt(amount0 * amount1) * 999n) / 1000n;
      await c.send(lp, address, 'DemoV3Pool', 'mint', [lp, FULL_RANGE[0], FULL_RANGE[1], liquidity, '0x'], { gas: 300_000n });
    }
    pools.push({
      address,
      protocol: p.protocol,
      stable: false,
      factory,
      spender,
      token0,
      token1,
      base,
      quote,
      symbol: `${p.base}/${p.quote}`,
      fee: p.fee,
      tickSpacing: p.protocol === 'uniswap-v3' ? (V3_TICK_SPACING[p.fee] ?? 60) : null,
      role: p.role,
    });
  }
  await c.mine();
  return pools;
}

export function poolAmounts(p: PoolSpec): [bigint, bigint] {
  const b = tokenSpec(p.base);
  const q = tokenSpec(p.quote);
  if (p.role === 'dust') return [toUnits(p.dustBase ?? 0, b.decimals), toUnits(p.dustQuote ?? 0, q.decimals)];
  return [toUnits(p.depthUsd / b.priceUsd, b.decimals), toUnits(p.depthUsd / q.priceUsd, q.decimals)];
}

// Traders and the arbitrageur get a share of every traded token and approve the spenders they use;
// burners get network tokens to burn; some supply is set aside so it does not circulate.
async function fundAccounts(c: DemoClient, accounts: DemoAccounts, tok: (s: string) => string, pools: DemoPoolInfo[]): Promise<void> {
  const actors = [...accounts.traders, accounts.arbitrageur];
  const deployer = accounts.deployer;
  const traded = new Set(pools.filter((p) => p.role !== 'dust').flatMap((p) => [p.base, p.quote]));
  for (const token of traded) {
    if (token === tok('WETH')) continue;
    const [balance] = await c.call(token, 'DemoToken', 'balanceOf', [deployer]);
    const share = ((balance as bigint) * 15n) / 100n / BigInt(actors.length);
    for (const actor of actors) await c.send(deployer, token, 'DemoToken', 'transfer', [actor, share], { gas: 80_000n });
  }
  for (const b of accounts.burners) await c.send(deployer, tok('LINEA'), 'NetworkToken', 'transfer', [b, 50_000_000n * 10n ** 18n], { gas: 80_000n });
  // Supply that is not circulating (config/circulating/demo.json): PCAT burned to 0x…dEaD at launch,
  // AUG left in its own contract, HRB in the treasury the configuration excludes for it.
  await c.send(deployer, tok('PCAT'), 'DemoToken', 'transfer', [DEAD_ADDRESS, 100_000_000_000n * 10n ** 9n], { gas: 80_000n });
  await c.send(deployer, tok('AUG'), 'DemoToken', 'transfer', [tok('AUG'), 250_000n * 10n ** 12n], { gas: 80_000n });
  await c.send(deployer, tok('HRB'), 'DemoToken', 'transfer', [accounts.treasury, 20_000_000n * 10n ** 18n], { gas: 80_000n });
  for (const actor of actors) {
    const done = new Set<string>();
    for (const p of pools) {
      if (p.role === 'dust') continue;
      for (const token of [p.base, p.quote]) {
        if (done.has(`${token}:${p.spender}`)) continue;
        done.add(`${token}:${p.spender}`);
        await c.send(actor, token, 'DemoToken', 'approve', [p.spender, MAX_UINT], { gas: 80_000n });
      }
    }
  }
}
