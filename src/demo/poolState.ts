// Reads every pool's reserves in one Multicall3 eth_call, or follows them through the pools' own
// events; concentrated pools (Uniswap V3, PancakeSwap V3, Algebra, Uniswap V4) are reported as their
// virtual reserves (x = L/sqrtP, y = L*sqrtP) so all families share one price model for the simulated
// traders. A V4 pool's state is read from its PoolManager with extsload, as v4-core's StateLibrary does.
import { AbiCoder, id, Interface, keccak256 } from 'ethers';
import { loadContract } from '../chain/contracts.ts';
import type { DemoClient } from './client.ts';
import type { DemoPoolInfo } from './deploy.ts';

export interface PoolReserves {
  /** Reserve of the catalog base token and quote token, in base units. */
  base: bigint;
  quote: bigint;
}

const Q96 = 2n ** 96n;

// Built once: an ethers Interface parses its whole ABI, and the market reads pools every block.
let interfaces: { pair: Interface; v3: Interface; algebra: Interface; reserve: Interface; manager: Interface } | undefined;
const poolInterfaces = () =>
  (interfaces ??= {
    pair: new Interface(loadContract('UniswapV2Pair').abi as never),
    v3: new Interface(loadContract('DemoV3Pool').abi as never),
    algebra: new Interface(loadContract('DemoAlgebraPool').abi as never),
    reserve: new Interface(loadContract('DemoReservePool').abi as never),
    manager: new Interface(loadContract('DemoPoolManager').abi as never),
  });

/** StateLibrary: a V4 pool's Pool.State starts at keccak256(id, 6); its liquidity is 3 words further. */
export function v4StateSlot(poolId: string, offset = 0n): string {
  const base = BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['bytes32', 'uint256'], [poolId, 6n])));
  return `0x${(base + offset).toString(16).padStart(64, '0')}`;
}

export async function readPoolStates(c: DemoClient, multicall3: string, pools: DemoPoolInfo[]): Promise<Map<string, PoolReserves>> {
  const { pair, v3, algebra, reserve, manager } = poolInterfaces();
  const priceView = (p: DemoPoolInfo) => (p.protocol === 'algebra' ? algebra.encodeFunctionData('globalState') : v3.encodeFunctionData('slot0'));
  const extsload = (p: DemoPoolInfo, offset: bigint) => manager.encodeFunctionData('extsload(bytes32)', [v4StateSlot(p.address, offset)]);
  const calls = pools.flatMap((p) =>
    p.protocol === 'uniswap-v4'
      ? [
          { target: p.factory, allowFailure: false, callData: extsload(p, 0n) },
          { target: p.factory, allowFailure: false, callData: extsload(p, 3n) },
        ]
      : p.protocol === 'uniswap-v2'
      ? [{ target: p.address, allowFailure: false, callData: pair.encodeFunctionData('getReserves') }]
      : isReservePool(p)
        ? [{ target: p.address, allowFailure: false, callData: reserve.encodeFunctionData('getReserves') }]
        : [
            { target: p.address, allowFailure: false, callData: priceView(p) },
            { target: p.address, allowFailure: false, callData: v3.encodeFunctionData('liquidity') },
          ],
  );
  const [results] = await c.call(multicall3, 'Multicall3', 'aggregate3', [calls]);
  const data = (results as { returnData: string }[]).map((r) => r.returnData);
  const states = new Map<string, PoolReserves>();
  let i = 0;
  for (const p of pools) {
    if (p.protocol === 'uniswap-v2' || isReservePool(p)) {
      const [a, b] = (p.protocol === 'uniswap-v2' ? pair : reserve).decodeFunctionResult('getReserves', data[i++] as string);
      states.set(p.address, oriented(p, a as bigint, b as bigint));
    } else if (p.protocol === 'uniswap-v4') {
      // slot0's low 160 bits are the sqrt price; the liquidity word holds a uint128
      const sqrtP = BigInt((data[i++] as string).slice(0, 66)) & ((1n << 160n) - 1n);
      const liquidity = BigInt((data[i++] as string).slice(0, 66));
      states.set(p.address, virtualReserves(p, sqrtP, liquidity));
    } else {
      // slot0() and globalState() both start with the sqrt price
      const sqrtP = BigInt((data[i++] as string).slice(0, 66));
      const [liquidity] = v3.decodeFunctionResult('liquidity', data[i++] as string);
      states.set(p.address, virtualReserves(p, sqrtP, liquidity as bigint));
    }
  }
  return states;
}

// Every event that sets a demo pool's state, and the data words it sets it from: V2-style pools
// emit Sync with both reserves after each swap, mint and burn; concentrated pools emit the sqrt
// price and in-range liquidity in each Swap (their liquidity changes only at deployment).
const SYNC_TOPICS = new Set([id('Sync(uint112,uint112)'), id('Sync(uint256,uint256)')]);
const CONCENTRATED_SWAP_TOPICS = new Set([
  id('Swap(address,address,int256,int256,uint160,uint128,int24)'),
  id('Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)'),
  // Uniswap V4's, emitted by the PoolManager with the pool id in topic 1; its words 2 and 3 are √P and L too.
  id('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)'),
]);

/**
 * Applies a block's logs, in order, to `states` (from readPoolStates): the result equals reading
 * the pools again after the block, without the eth_call. Logs of other contracts are ignored.
 */
export function applyPoolLogs(states: Map<string, PoolReserves>, pools: ReadonlyMap<string, DemoPoolInfo>, logs: readonly { address: string; topics: readonly string[]; data: string }[]): void {
  for (const log of logs) {
    const p = pools.get(log.address.toLowerCase()) ?? pools.get(log.topics[1]?.toLowerCase() ?? '');
    const topic = log.topics[0];
    if (!p || !topic) continue;
    const word = (n: number) => BigInt(`0x${log.data.slice(2 + 64 * n, 66 + 64 * n)}`);
    if (SYNC_TOPICS.has(topic)) states.set(p.address, oriented(p, word(0), word(1)));
    else if (CONCENTRATED_SWAP_TOPICS.has(topic)) states.set(p.address, virtualReserves(p, word(2), word(3)));
  }
}

/** The pools by lower-cased address, for applyPoolLogs. */
export function poolsByAddress(pools: readonly DemoPoolInfo[]): Map<string, DemoPoolInfo> {
  return new Map(pools.map((p) => [p.address.toLowerCase(), p]));
}

function oriented(p: DemoPoolInfo, r0: bigint, r1: bigint): PoolReserves {
  return p.base === p.token0 ? { base: r0, quote: r1 } : { base: r1, quote: r0 };
}

function virtualReserves(p: DemoPoolInfo, sqrtP: bigint, liquidity: bigint): PoolReserves {
  return oriented(p, (liquidity * Q96) / sqrtP, (liquidity * sqrtP) / Q96);
}

export function isReservePool(p: DemoPoolInfo): boolean {
  return p.protocol === 'solidly' || p.protocol === 'syncswap';
}
