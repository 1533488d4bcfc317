// What the contract half of a check (readProxyAndPowers) costs a provider, counted by the simulated
// node (each batch item counted): a token whose code cannot delegate costs its code and one eth_call
// (owner() and getOwner() through Multicall3), no storage read; an EIP-1967 proxy adds two slots
// (implementation, then admin) and its implementation's code. The findings are the world's.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createChainClient, type ChainClient } from '../../src/chain/index.ts';
import { readProxyAndPowers } from '../../src/indexer/contractChecks/readProxyAndPowers.ts';
import { SimChain } from '../../sim/chain.ts';
import { startSimServer, type SimServer } from '../../sim/server.ts';

let chain: SimChain;
let server: SimServer;
let client: ChainClient;

before(async () => {
  chain = new SimChain({ profile: 'demo-size', seed: 1 });
  server = await startSimServer(chain);
  client = createChainClient({ url: server.url });
});
after(async () => {
  client.destroy();
  await server.close();
});

/** The requests `read` makes, by method. */
async function counted<T>(read: () => Promise<T>): Promise<[T, Record<string, number>]> {
  const before = server.stats().byMethod;
  const value = await read();
  const delta = Object.fromEntries(Object.entries(server.stats().byMethod).map(([m, n]) => [m, n - (before[m] ?? 0)]).filter(([, n]) => n !== 0));
  return [value, delta];
}

test('a token whose code cannot delegate costs eth_getCode and one eth_call; a proxy two slots and its implementation code more', async () => {
  const w = chain.world;
  const read = (token: string) => counted(() => readProxyAndPowers(client, token, chain.head, w.addresses.multicall3));

  const plain = w.tokens.find((t) => t.kind === 'normal' && !t.implementation)!;
  const [plainFound, plainCost] = await read(plain.address);
  assert.deepEqual(plainCost, { eth_getCode: 1, eth_call: 1 });
  assert.equal(plainFound.proxy, null);
  assert.equal(plainFound.hasCode, true);

  const mintable = w.tokens.find((t) => t.kind === 'mintable')!;
  const [mintableFound, mintableCost] = await read(mintable.address);
  assert.deepEqual(mintableCost, { eth_getCode: 1, eth_call: 1 });
  assert.equal(mintableFound.owner, w.addresses.owner);
  assert.deepEqual(mintableFound.powers.map((p) => p.power), ['mint']);

  const proxy = w.tokens.find((t) => t.implementation)!;
  const [proxyFound, proxyCost] = await read(proxy.address);
  assert.deepEqual(proxyCost, { eth_getCode: 2, eth_getStorageAt: 2, eth_call: 1 });
  assert.deepEqual(proxyFound.proxy, { standard: 'eip1967', implementation: proxy.implementation, admin: w.addresses.proxyAdmin });
});
