// Reads every pool's reserves in one Multicall3 eth_call; concentrated pools (Uniswap V3,
// PancakeSwap V3, Algebra) are reported as their virtual reserves (x = L/sqrtP, y = L*sqrtP) so all
// families share one price model for the simulated traders.
import { Interface } from 'ethers';
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
let interfaces: { pair: Interface; v3: Interface; algebra: Interface; reserve: Interface } | undefined;
const poolInterfaces = () =>
  (interfaces ??= {
    pair: new Interface(loadContract('UniswapV2Pair').abi as never),
    v3: new Interface(loadContract('DemoV3Pool').abi as never),
    algebra: new Interface(loadContract('DemoAlgebraPool').abi as never),
    reserve: new Interface(loadContract('DemoReservePool').abi as never),
  });

export async function readPoolStates(c: DemoClient, multicall3: string, pools: DemoPoolInfo[]): Promise<Map<string, PoolReserves>> {
  const { pair, v3, algebra, reserve } = poolInterfaces();
  const priceView = (p: DemoPoolInfo) => (p.protocol === 'algebra' ? algebra.encodeFunctionData('globalState') : v3.encodeFunctionData('slot0'));
  const calls = pools.flatMap((p) =>
    p.protocol === 'uniswap-v2'
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
    let r0: bigint;
    let r1: bigint;
    if (p.protocol === 'uniswap-v2' || isReservePool(p)) {
      const [a, b] = (p.protocol === 'uniswap-v2' ? pair : reserve).decodeFunctionResult('getReserves', data[i++] as string);
      [r0, r1] = [a as bigint, b as bigint];
    } else {
      // slot0() and globalState() both start with the sqrt price
      const sqrtP = BigInt((data[i++] as string).slice(0, 66));
      const [liquidity] = v3.decodeFunctionResult('liquidity', data[i++] as string);
      r0 = ((liquidity as bigint) * Q96) / (sqrtP as bigint);
      r1 = ((liquidity as bigint) * (sqrtP as bigint)) / Q96;
    }
    states.set(p.address, p.base === p.token0 ? { base: r0, quote: r1 } : { base: r1, quote: r0 });
  }
  return states;
}

export function isReservePool(p: DemoPoolInfo): boolean {
  return p.protocol === 'solidly' || p.protocol === 'syncswap';
}
