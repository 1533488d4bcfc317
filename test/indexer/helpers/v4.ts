// Uniswap V4 on a test world: a PoolManager (the demo's, with v4-core's events and storage layout),
// pools created and traded through it, a hook placed at an address that grants its permissions,
// and the pool state read back with extsload at StateLibrary's slots — the test's own view of the
// chain, apart from the indexer's.
import { AbiCoder, Contract, keccak256, MaxUint256, ZeroAddress } from 'ethers';
import { loadContract } from '../../../src/chain/contracts.ts';
import type { World } from './world.ts';

export type V4Key = { currency0: string; currency1: string; fee: number; tickSpacing: number; hooks: string };
export type V4State = { sqrtPriceX96: bigint; tick: number; lpFee: number; liquidity: bigint };

export const FULL_RANGE = [-887220, 887220] as const;
export const DYNAMIC_FEE = 0x800000;
/** Low 14 bits 0x0088: beforeSwap and beforeSwapReturnDelta (Hooks.sol). */
export const HOOK_ADDRESS = '0x4444000000000000000000000000000000000088';

const tuple = (k: V4Key) => [k.currency0, k.currency1, k.fee, k.tickSpacing, k.hooks];
export const v4Id = (k: V4Key) => keccak256(AbiCoder.defaultAbiCoder().encode(['tuple(address,address,uint24,int24,address)'], [tuple(k)])).toLowerCase();

export function v4Slot(id: string, offset = 0n): string {
  const base = BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['bytes32', 'uint256'], [id, 6n])));
  return `0x${(base + offset).toString(16).padStart(64, '0')}`;
}

export async function v4World(world: World) {
  const send = async (p: Promise<{ wait(): Promise<unknown> }>) => void (await (await p).wait());
  return {
    deployManager: () => world.deploy('DemoPoolManager', []),
    /** The demo hook (keeps `takeBps` of each input), its code placed at HOOK_ADDRESS. */
    async placeHook(takeBps: bigint): Promise<string> {
      const hook = await world.deploy('DemoSwapDeltaHook', [takeBps]);
      await world.rpc('hardhat_setCode', [HOOK_ADDRESS, await world.rpc<string>('eth_getCode', [await hook.getAddress(), 'latest'])]);
      return HOOK_ADDRESS;
    },
    /** Initialises the pool at amount1/amount0 and adds one full-range position holding about those amounts. */
    async create(manager: Contract, key: V4Key, amount0: bigint, amount1: bigint): Promise<string> {
      const address = await manager.getAddress();
      const sqrt = (x: bigint) => {
        if (x < 2n) return x;
        let y = x;
        let z = (x + 1n) / 2n;
        while (z < y) [y, z] = [z, (x / z + z) / 2n];
        return y;
      };
      await send(manager.getFunction('initialize')(tuple(key), sqrt((amount1 << 192n) / amount0)));
      for (const currency of [key.currency0, key.currency1]) {
        if (currency === ZeroAddress) continue;
        await send(new Contract(currency, loadContract('DemoToken').abi as never, world.signer).getFunction('approve')(address, MaxUint256));
      }
      await this.modify(manager, key, (sqrt(amount0 * amount1) * 999n) / 1000n, key.currency0 === ZeroAddress ? amount0 + amount0 / 100n : 0n);
      return v4Id(key);
    },
    modify: (manager: Contract, key: V4Key, liquidityDelta: bigint, value = 0n) =>
      send(manager.getFunction('modifyLiquidity')(tuple(key), FULL_RANGE[0], FULL_RANGE[1], liquidityDelta, `0x${'00'.repeat(32)}`, { value })),
    swap: (manager: Contract, key: V4Key, zeroForOne: boolean, amountIn: bigint) =>
      send(manager.getFunction('swap')(tuple(key), zeroForOne, amountIn, world.me, { value: zeroForOne && key.currency0 === ZeroAddress ? amountIn : 0n })),
    /** The pool's slot0 and liquidity at a block, read as StateLibrary reads them. */
    async state(manager: Contract, id: string, blockTag: number | 'latest' = 'latest'): Promise<V4State> {
      const read = async (offset: bigint) => BigInt(await manager.getFunction('extsload(bytes32)')(v4Slot(id, offset), { blockTag }));
      const slot0 = await read(0n);
      return {
        sqrtPriceX96: slot0 & ((1n << 160n) - 1n),
        tick: Number(BigInt.asIntN(24, (slot0 >> 160n) & 0xffffffn)),
        lpFee: Number((slot0 >> 208n) & 0xffffffn),
        liquidity: await read(3n),
      };
    },
  };
}
