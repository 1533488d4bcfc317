import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { createChainClient } from '../../../src/chain/index.ts';
import { resolveNetworkTokenSupply } from '../../../src/config/networkTokenSupply.ts';
import { readSupplySettings } from '../../../src/config/supplyConfig.ts';
import { createNetworkTokenSupplyService } from '../../../src/readModel/supply/createNetworkTokenSupplyService.ts';
import { ConfigError } from '../../../src/errors/index.ts';
import { testApp } from '../../helpers/testApp.ts';
import { startSupplyWorld, type SupplyWorld } from '../../supply/helpers.ts';

const LINEA = '0x1789e0043623282D5DCc7F213d703C6D8BAfBB04';
const example = new URL('../../../config/supply/linea.example.json', import.meta.url).pathname;
const unused = createChainClient({ url: 'http://127.0.0.1:1' });
const resolve = (env: Record<string, string>, demo?: SupplyWorld['deployment']['networkToken']) => resolveNetworkTokenSupply(readSupplySettings(env), demo);

describe('the network token supply service, as the configuration resolves it', () => {
  let world: SupplyWorld;
  before(async () => {
    world = await startSupplyWorld();
  });
  after(() => world.stop());

  it('on the demo network serves the demo token with demo.json and the deployment roles, by default', async () => {
    const supply = createNetworkTokenSupplyService(resolve({}, world.deployment.networkToken), { chain: createChainClient({ url: world.chain.url }) });
    assert.ok(supply);
    assert.equal(supply.tokenAddress, world.deployment.networkToken.address);
    assert.equal(supply.cacheSeconds, 5);
    const res = await request(testApp(world.db, { supply })).get(`/supply/circulating?contractAddress=${supply.tokenAddress}&format=json`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.excluded.wallets.map((w: { address: string }) => w.address),
      [world.deployment.networkToken.treasury, world.deployment.networkToken.ecosystem],
    );
  });

  it('serves nothing on a real network without NETWORK_TOKEN_ADDRESS', () => {
    assert.equal(createNetworkTokenSupplyService(resolve({ SUPPLY_CONFIG: example }), { chain: unused }), undefined);
  });

  it('requires SUPPLY_CONFIG with NETWORK_TOKEN_ADDRESS on a real network', () => {
    assert.throws(() => resolve({ NETWORK_TOKEN_ADDRESS: LINEA }), (e: unknown) => e instanceof ConfigError && /SUPPLY_CONFIG: required/.test(e.message));
  });

  it('takes the Linea example with the LINEA address and the env settings', () => {
    const supply = createNetworkTokenSupplyService(resolve({ NETWORK_TOKEN_ADDRESS: LINEA.toLowerCase(), SUPPLY_CONFIG: example, SUPPLY_CACHE_SECONDS: '10' }), { chain: unused });
    assert.equal(supply?.tokenAddress, LINEA);
    assert.equal(supply?.cacheSeconds, 10);
  });

  it('refuses the demo config on a network without the demo roles, naming the entries', () => {
    const demo = new URL('../../../config/supply/demo.json', import.meta.url).pathname;
    assert.throws(
      () => resolve({ NETWORK_TOKEN_ADDRESS: LINEA, SUPPLY_CONFIG: demo }),
      (e: unknown) => e instanceof ConfigError && e.problems.length === 2 && /excludedWallets\[0\]\.role/.test(e.message),
    );
  });
});
