// What a contract check costs a provider, counted by the simulated node (each batch item counted).
// The contract half (readProxyAndPowers) of a token whose code cannot delegate costs its code and
// one eth_call (owner() and getOwner() through Multicall3), no storage read; an EIP-1967 proxy adds
// two slots (implementation, then admin) and its implementation's code. A whole check by the
// indexer (bench/checksCost.ts: demo-size indexed, then every priced token checked through a server
// of its own) costs a token that cannot delegate at most eth_getCode, two receipts and two eth_calls
// (the owner calls ride in the holders' balances aggregate3; the sale), a proxy three more.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createChainClient, type ChainClient } from '../../src/chain/index.ts';
import { readProxyAndPowers } from '../../src/indexer/contractChecks/readProxyAndPowers.ts';
import { SimChain } from '../../sim/chain.ts';
import { measureChecksCost } from '../../bench/checksCost.ts';
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

test("every priced token's whole check on demo-size: at most 5 requests for a token that cannot delegate, 8 for a proxy", async () => {
  const cost = await measureChecksCost(new SimChain({ profile: 'demo-size', seed: 1 }));
  assert.equal(cost.failures, 0);
  assert.equal(cost.checked, cost.priced);
  assert.ok(cost.proxies >= 1, 'a proxy among the checked tokens');
  const plain = cost.checked - cost.proxies;
  const m = (method: string) => cost.byMethod[method] ?? 0;
  assert.equal(m('eth_getStorageAt'), 2 * cost.proxies, 'slots read for the proxies only');
  assert.equal(m('eth_getCode'), cost.checked + cost.proxies, "each token's code, and each proxy's implementation");
  assert.ok(m('eth_getTransactionReceipt') <= 2 * cost.checked);
  assert.ok(m('eth_call') <= 2 * cost.checked, `${m('eth_call')} eth_calls for ${cost.checked} tokens`);
  assert.ok(cost.requests <= 5 * plain + 8 * cost.proxies, `${cost.requests} requests for ${plain} tokens and ${cost.proxies} proxies`);
  assert.deepEqual(Object.keys(cost.byMethod).sort(), ['eth_call', 'eth_getCode', 'eth_getStorageAt', 'eth_getTransactionReceipt']);
});
