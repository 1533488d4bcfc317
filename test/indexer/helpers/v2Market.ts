// A test chain with two V2 pairs (USDC/WETH, TKA/WETH), a node client and two PGlite databases,
// all closed when the test ends: the set-up of the restart and reorg tests, which index one
// chain twice and compare.
import type { TestContext } from 'node:test';
import type { Contract } from 'ethers';
import { createChainClient, type ChainClient } from '../../../src/chain/index.ts';
import type { IndexerConfig } from '../../../src/config/indexerConfig.ts';
import type { Database } from '../../../src/db/index.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { createWorld, type World } from './world.ts';

export const e18 = 10n ** 18n;
export const e6 = 10n ** 6n;

export type V2Market = {
  world: World;
  client: ChainClient;
  dbs: [Database, Database];
  usdc: Contract;
  weth: Contract;
  tka: Contract;
  usdcWeth: Contract;
  tkaWeth: Contract;
  /** The indexer's configuration for the chain's V2 factory, USDC as the stablecoin and WETH as the wrapped native token. */
  config(overrides?: Omit<Partial<IndexerConfig>, 'factories'>): Promise<IndexerConfig>;
};

export async function openV2Market(t: TestContext): Promise<V2Market> {
  const world = await createWorld();
  const client = createChainClient({ url: world.chain.url });
  const dbs: [Database, Database] = [await openPglite(), await openPglite()];
  t.after(async () => {
    for (const db of dbs) await db.close();
    client.destroy();
    await world.stop();
  });
  const usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 12n * e6);
  const weth = await world.token('Wrapped Ether', 'WETH', 18, 10n ** 6n * e18);
  const tka = await world.token('Token A', 'TKA', 18, 10n ** 6n * e18);
  const usdcWeth = await world.v2Pair(usdc, weth, 300_000n * e6, 100n * e18);
  const tkaWeth = await world.v2Pair(tka, weth, 10_000n * e18, 20n * e18);
  const addr = async (c: { getAddress(): Promise<string> }) => (await c.getAddress()).toLowerCase();
  return {
    world, client, dbs, usdc, weth, tka, usdcWeth, tkaWeth,
    config: async (overrides = {}) =>
      world.config({ factories: { v2: [await addr(world.v2Factory)] }, stablecoins: [await addr(usdc)], wrappedNative: await addr(weth), ...overrides }),
  };
}
