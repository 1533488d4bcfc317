// One pool of every DEX family against a 6-decimal USDC on a test world (the family cases, a
// Uniswap V2 pair and a Uniswap V4 pool), each with its own 18-decimal token, and the factories
// configured per factory type: the chain that familiesReorgRestart.test.ts and headFirst.test.ts
// index. The callers trade on it as their tests need.
import type { Contract } from 'ethers';
import type { Case } from './familyCases.ts';
import { v4World, type V4Key } from './v4.ts';
import type { World } from './world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();

export type FamilyPools = {
  built: { c: Case; factory: Contract; token: Contract; pool: Contract }[];
  /** A Uniswap V2 pair (the sixth family) and its token. */
  v2: { token: Contract; pair: Contract };
  /** A Uniswap V4 pool (the seventh): its PoolManager, key, and whether its token is currency0. */
  v4: { manager: Contract; key: V4Key; tokenIs0: boolean; api: Awaited<ReturnType<typeof v4World>> };
  /** Factory addresses by factory type (IndexerConfig.factories, before fromBlock). */
  configured: Record<string, string[]>;
};

export async function createFamilyPools(world: World, usdc: Contract, cases: readonly Case[]): Promise<FamilyPools> {
  const configured: Record<string, string[]> = {};
  const built: FamilyPools['built'] = [];
  for (const [i, c] of cases.entries()) {
    const factory = await world.deploy(c.factory.contract, c.factory.args);
    (configured[c.configKey] ??= []).push(await addr(factory));
    const token = await world.token(`Token ${i}`, `TK${i}`, 18, 10n ** 9n * e18);
    const pool = await c.create(factory, token, 100_000n * e18, (c.name.includes('stable') ? 110_000n : 200_000n) * e6);
    built.push({ c, factory, token, pool });
  }
  const v2Token = await world.token('Token V2', 'TKV2', 18, 10n ** 9n * e18);
  const v2 = { token: v2Token, pair: await world.v2Pair(v2Token, usdc, 100_000n * e18, 200_000n * e6) };
  configured.v2 = [await addr(world.v2Factory)];
  const api = await v4World(world);
  const manager = await api.deployManager();
  const v4Token = await world.token('Token V4', 'TKV4', 18, 10n ** 9n * e18);
  const [c0, c1] = [await addr(v4Token), await addr(usdc)].sort();
  const tokenIs0 = c0 === (await addr(v4Token));
  const key = { currency0: c0!, currency1: c1!, fee: 3000, tickSpacing: 60, hooks: '0x0000000000000000000000000000000000000000' };
  await api.create(manager, key, tokenIs0 ? 100_000n * e18 : 200_000n * e6, tokenIs0 ? 200_000n * e6 : 100_000n * e18);
  configured.v4 = [await addr(manager)];
  return { built, v2, v4: { manager, key, tokenIs0, api }, configured };
}
