// Reads every pool's reserves in one Multicall3 eth_call; V3 pools are reported as their
// full-range virtual reserves (x = L/sqrtP, y = L*sqrtP) so both protocols share one price model.
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

export async function readPoolStates(c: DemoClient, multicall3: string, pools: DemoPoolInfo[]): Promise<Map<string, PoolReserves>> {
  const pair = new Interface(loadContract('UniswapV2Pair').abi as never);
  const v3 = new Interface(loadContract('DemoV3Pool').abi as never);
  const calls = pools.flatMap((p) =>
    p.protocol === 'uniswap-v2'
      ? [{ target: p.address, allowFailure: false, callData: pair.encodeFunctionData('getReserves') }]
      : [
          { target: p.address, allowFailure: false, callData: v3.encodeFunctionData('slot0') },
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
    if (p.protocol === 'uniswap-v2') {
      const [a, b] = pair.decodeFunctionResult('getReserves', data[i++] as string);
      [r0, r1] = [a as bigint, b as bigint];
    } else {
      const [sqrtP] = v3.decodeFunctionResult('slot0', data[i++] as string);
      const [liquidity] = v3.decodeFunctionResult('liquidity', data[i++] as string);
      r0 = ((liquidity as bigint) * Q96) / (sqrtP as bigint);
      r1 = ((liquidity as bigint) * (sqrtP as bigint)) / Q96;
    }
    states.set(p.address, p.base === p.token0 ? { base: r0, quote: r1 } : { base: r1, quote: r0 });
  }
  return states;
}
