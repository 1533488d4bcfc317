// The DEX families of the in-process chain as test cases: each deploys its factory, creates and funds a
// pool against USDC, swaps in it, and computes the pool's USD price from its on-chain state (written
// here, not imported from the project's pool math).
import { Contract, MaxUint256 } from 'ethers';
import { loadContract, type ContractName } from '../../../src/chain/contracts.ts';
import type { World } from './world.ts';

/** The world and the 6-decimal USDC every pool trades against, read when a case runs. */
export type FamilyEnv = () => { world: World; usdc: Contract };

export type Case = {
  name: string;
  kind: string;
  /** Creates the pool through `factory`, funds it with `amountToken` / `amountUsdc`, returns it. */
  create(factory: Contract, token: Contract, amountToken: bigint, amountUsdc: bigint): Promise<Contract>;
  factory: { contract: ContractName; args: unknown[] };
  /** The factory type the configuration lists its factory under. */
  configKey: string;
  /** USD per whole token from the pool's state at `block`, computed here (18-decimal token, 6-decimal USDC). */
  price(pool: Contract, tokenIs0: boolean, block: number): Promise<number>;
  swap(pool: Contract, tokenIn: Contract, amountIn: bigint): Promise<void>;
};

export function familyCases(env: FamilyEnv): Case[] {
  const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();
  const send = async (p: Promise<{ wait(): Promise<unknown> }>) => void (await (await p).wait());
  const at = (block: number) => ({ blockTag: block });
  const Q96 = 2n ** 96n;

  // Whole-unit price of an 18-decimal token in 6-decimal USDC from a base-unit ratio num/den (token1 per token0).
  const toUsd = (num: bigint, den: bigint, tokenIs0: boolean) => {
    const perBase = tokenIs0 ? { n: num, d: den } : { n: den, d: num };
    const scaled = (perBase.n * 10n ** 18n * 10n ** 18n) / (perBase.d * 10n ** 6n);
    return Number(scaled) / 1e18;
  };

  // Marginal prices of the stable invariants, on reserves normalised to 18 decimals (x = r·10^(18−d)).
  function solidlyStableUsd(r0: bigint, r1: bigint, tokenIs0: boolean) {
    const x = tokenIs0 ? r0 : r0 * 10n ** 12n;
    const y = tokenIs0 ? r1 * 10n ** 12n : r1;
    const num = 3n * x * x * y + y * y * y; // −dy/dx of x³y + xy³ = k, in y per x
    const den = x * x * x + 3n * x * y * y;
    const p = Number((num * 10n ** 18n) / den) / 1e18;
    return tokenIs0 ? p : 1 / p;
  }
  function curveStableUsd(r0: bigint, r1: bigint, tokenIs0: boolean) {
    const x = Number(tokenIs0 ? r0 : r0 * 10n ** 12n) / 1e18;
    const y = Number(tokenIs0 ? r1 * 10n ** 12n : r1) / 1e18;
    const ann = 2000;
    // D by bisection on Ann(x + y) + D − Ann·D − D³/(4xy) (decreasing in D)
    let lo = 0;
    let hi = 2 * (x + y);
    for (let i = 0; i < 200; i++) {
      const d = (lo + hi) / 2;
      if (ann * (x + y) + d - ann * d - d ** 3 / (4 * x * y) > 0) lo = d;
      else hi = d;
    }
    const d = lo;
    const p = (4 * ann * x * x * y * y + d ** 3 * y) / (4 * ann * x * x * y * y + d ** 3 * x); // y per x
    return tokenIs0 ? p : 1 / p;
  }

  const reserveCase = (name: string, kind: string, contract: ContractName, args: unknown[], configKey: Case['configKey'], createFn: string, extra: unknown[],
    price: (r0: bigint, r1: bigint, tokenIs0: boolean) => number): Case => ({
    name, kind, factory: { contract, args }, configKey,
    async create(factory, token, amountToken, amountUsdc) {
      await send(factory.getFunction(createFn)(await token.getAddress(), await env().usdc.getAddress(), ...extra));
      const getter = contract === 'DemoSyncSwapFactory' ? 'getPool' : 'getPair';
      const address = (await factory.getFunction(getter)(await token.getAddress(), await env().usdc.getAddress(), ...extra)) as string;
      const pool = new Contract(address, loadContract('DemoReservePool').abi as never, env().world.signer);
      await send(token.getFunction('transfer')(address, amountToken));
      await send(env().usdc.getFunction('transfer')(address, amountUsdc));
      await send(pool.getFunction('mint')(env().world.me));
      for (const t of [token, env().usdc]) await send(t.getFunction('approve')(address, MaxUint256));
      return pool;
    },
    async price(pool, tokenIs0, block) {
      const [r0, r1] = (await pool.getFunction('getReserves')(at(block))) as [bigint, bigint];
      return price(r0, r1, tokenIs0);
    },
    async swap(pool, tokenIn, amountIn) {
      await send(pool.getFunction('swap')(await tokenIn.getAddress(), amountIn, env().world.me));
    },
  });

  const concentratedCase = (name: string, kind: string, factory: ContractName, poolName: ContractName, configKey: Case['configKey'], fee: number | null, priceView: string): Case => ({
    name, kind, factory: { contract: factory, args: [] }, configKey,
    async create(f, token, amountToken, amountUsdc) {
      const extra = fee === null ? [] : [fee];
      await send(f.getFunction('createPool')(await token.getAddress(), await env().usdc.getAddress(), ...extra));
      const getter = fee === null ? 'poolByPair' : 'getPool';
      const address = (await f.getFunction(getter)(await token.getAddress(), await env().usdc.getAddress(), ...extra)) as string;
      const pool = new Contract(address, loadContract(poolName).abi as never, env().world.signer);
      const tokenIs0 = (await addr(token)) < (await addr(env().usdc));
      const [a0, a1] = tokenIs0 ? [amountToken, amountUsdc] : [amountUsdc, amountToken];
      let s = a1 * 2n ** 192n / a0;
      let x = s;
      for (let y = (x + 1n) / 2n; y < x; y = (x + s / x) / 2n) x = y;
      s = x;
      await send(pool.getFunction('initialize')(s));
      for (const t of [token, env().usdc]) await send(t.getFunction('approve')(address, MaxUint256));
      let l = a0 * a1;
      let z = l;
      for (let y = (z + 1n) / 2n; y < z; y = (z + l / z) / 2n) z = y;
      l = z;
      await send(pool.getFunction('mint')(env().world.me, -887220, 887220, (l * 99n) / 100n, '0x'));
      return pool;
    },
    async price(pool, tokenIs0, block) {
      const [sqrtP] = (await pool.getFunction(priceView)(at(block))) as [bigint];
      return toUsd(sqrtP * sqrtP, Q96 * Q96, tokenIs0);
    },
    async swap(pool, tokenIn, amountIn) {
      const zeroForOne = (await addr(tokenIn)) === ((await pool.getFunction('token0')()) as string).toLowerCase();
      await send(pool.getFunction('swap')(env().world.me, zeroForOne, amountIn, 0n, '0x'));
    },
  });

  return [
    reserveCase('Solidly volatile', 'solidly', 'DemoSolidlyFactory', [], 'solidly', 'createPair', [false], (r0, r1, t0) => toUsd(r1, r0, t0)),
    reserveCase('Solidly stable', 'solidly', 'DemoSolidlyFactory', [], 'solidly', 'createPair', [true], solidlyStableUsd),
    reserveCase('Etherex legacy volatile', 'etherex', 'DemoEtherexFactory', [], 'etherex-legacy', 'createPair', [false], (r0, r1, t0) => toUsd(r1, r0, t0)),
    reserveCase('Etherex legacy stable', 'etherex', 'DemoEtherexFactory', [], 'etherex-legacy', 'createPair', [true], solidlyStableUsd),
    reserveCase('SyncSwap classic', 'syncswap', 'DemoSyncSwapFactory', [false], 'syncswap-classic', 'createPool', [], (r0, r1, t0) => toUsd(r1, r0, t0)),
    reserveCase('SyncSwap stable', 'syncswap', 'DemoSyncSwapFactory', [true], 'syncswap-stable', 'createPool', [], curveStableUsd),
    concentratedCase('PancakeSwap V3', 'pancake-v3', 'DemoPancakeV3Factory', 'DemoPancakeV3Pool', 'pancake-v3', 2500, 'slot0'),
    concentratedCase('Algebra', 'algebra', 'DemoAlgebraFactory', 'DemoAlgebraPool', 'algebra', null, 'globalState'),
    concentratedCase('Uniswap V3', 'v3', 'DemoV3Factory', 'DemoV3Pool', 'v3', 3000, 'slot0'),
  ];
}
