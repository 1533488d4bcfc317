// A small hand-built chain for indexer tests: tokens, V2 pairs and V3 pools driven directly
// (transfer + pair.swap), so every reserve and swap is known exactly.
import { Contract, ContractFactory, JsonRpcProvider, type JsonRpcSigner, MaxUint256 } from 'ethers';
import { loadContract, MULTICALL3_ADDRESS, type ContractName } from '../../../src/chain/contracts.ts';
import { startDemoChain, type DemoChain } from '../../../src/demo/chain.ts';
import type { IndexerConfig } from '../../../src/config/indexerConfig.ts';
import { indexerDefaults } from '../../../src/config/indexerConfig.ts';

export type World = {
  chain: DemoChain;
  provider: JsonRpcProvider;
  signer: JsonRpcSigner;
  me: string;
  deploy(name: ContractName, args: unknown[]): Promise<Contract>;
  token(name: string, symbol: string, decimals: number, supply: bigint): Promise<Contract>;
  v2Factory: Contract;
  v3Factory: Contract;
  /** Creates a V2 pair holding exactly the given amounts. */
  v2Pair(a: Contract, b: Contract, amountA: bigint, amountB: bigint): Promise<Contract>;
  /** Puts `amountIn` of `tokenIn` into the pair and takes out the exact constant-product output. */
  v2Swap(pair: Contract, tokenIn: Contract, amountIn: bigint): Promise<void>;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Mines an empty block at this timestamp (seconds). */
  mineAt(timestamp: number): Promise<number>;
  latest(): Promise<{ number: number; timestamp: number }>;
  /** The indexer's configuration for this chain; `factories` by type as plain addresses, each read from block 0. */
  config(overrides?: Omit<Partial<IndexerConfig>, 'factories'> & { factories?: Record<string, string[]> }): IndexerConfig;
  stop(): Promise<void>;
};

export async function createWorld(options: { initialDate?: Date } = {}): Promise<World> {
  const chain = await startDemoChain({ initialDate: options.initialDate ?? new Date(Date.now() - 10 * 86_400_000) });
  const provider = new JsonRpcProvider(chain.url, chain.chainId, { staticNetwork: true, batchMaxCount: 1 });
  const signer = await provider.getSigner(0);
  const me = await signer.getAddress();
  const rpc = <T>(method: string, params: unknown[] = []) => provider.send(method, params) as Promise<T>;
  await rpc('hardhat_setCode', [MULTICALL3_ADDRESS, loadContract('Multicall3').deployedBytecode]);
  const deploy = async (name: ContractName, args: unknown[]) => {
    const a = loadContract(name);
    const c = await new ContractFactory(a.abi as never, a.bytecode, signer).deploy(...args);
    await c.waitForDeployment();
    return c as Contract;
  };
  const v2Factory = await deploy('UniswapV2Factory', []);
  const v3Factory = await deploy('DemoV3Factory', []);
  const pairAbi = loadContract('UniswapV2Pair').abi;
  const send = async (p: Promise<{ wait(): Promise<unknown> }>) => void (await (await p).wait());

  const world: World = {
    chain, provider, signer, me, deploy, v2Factory, v3Factory, rpc,
    token: (name, symbol, decimals, supply) => deploy('DemoToken', [name, symbol, decimals, supply, me]),
    async v2Pair(a, b, amountA, amountB) {
      await send(v2Factory.getFunction('createPair')(await a.getAddress(), await b.getAddress()));
      const address = await v2Factory.getFunction('getPair')(await a.getAddress(), await b.getAddress());
      const pair = new Contract(address as string, pairAbi as never, signer);
      await send(a.getFunction('transfer')(address, amountA));
      await send(b.getFunction('transfer')(address, amountB));
      await send(pair.getFunction('mint')(me));
      return pair;
    },
    async v2Swap(pair, tokenIn, amountIn) {
      const [r0, r1] = (await pair.getFunction('getReserves')()) as [bigint, bigint];
      const inIs0 = ((await pair.getFunction('token0')()) as string).toLowerCase() === (await tokenIn.getAddress()).toLowerCase();
      const [rin, rout] = inIs0 ? [r0, r1] : [r1, r0];
      const out = (amountIn * 997n * rout) / (rin * 1000n + amountIn * 997n);
      await send(tokenIn.getFunction('transfer')(await pair.getAddress(), amountIn));
      await send(pair.getFunction('swap')(inIs0 ? 0n : out, inIs0 ? out : 0n, me, '0x'));
    },
    async mineAt(timestamp) {
      await rpc('evm_mine', [timestamp]);
      return (await world.latest()).number;
    },
    async latest() {
      const b = await rpc<{ number: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
      return { number: Number(b.number), timestamp: Number(b.timestamp) };
    },
    config(overrides = {}) {
      return {
        network: 'test', chainId: chain.chainId,
        startBlock: 0, batchSize: 1000, pollIntervalMs: 50, confirmations: 0,
        stablecoins: [], wrappedNative: null, multicall3: MULTICALL3_ADDRESS.toLowerCase(),
        minLiquidityUsd: indexerDefaults.minLiquidityUsd, usdGuard: indexerDefaults.usdGuard, usdFeed: null, usdPeg: null, secureScoreMin: indexerDefaults.secureScoreMin, secureMarketCapMinUsd: indexerDefaults.secureMarketCapMinUsd,
        tokenList: null, reorgDepth: 128, supplyRefreshBlocks: 10_000,
        // Contract checks read the chain head whenever a round happens to run, so two runs over the
        // same history store them at different checkpoints: off unless a test turns them on.
        contractCheckMaxCalls: 0,
        ...overrides,
        // Factories by type, each read from block 0.
        factories: Object.fromEntries(Object.entries(overrides.factories ?? {}).map(([type, list]) => [type, list.map((address) => ({ address: address.toLowerCase(), fromBlock: 0 }))])),
      };
    },
    async stop() {
      provider.destroy();
      await chain.stop();
    },
  };
  return world;
}

export { MaxUint256 };
