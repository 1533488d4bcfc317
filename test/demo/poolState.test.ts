// The history's traders follow the pools through their events instead of reading them before
// every block: after any number of blocks, what they followed equals what the pools answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDemoChain, type DemoChain } from '../../src/demo/chain.ts';
import { createDemoClient } from '../../src/demo/client.ts';
import { deployDemo, type DemoDeployment } from '../../src/demo/deploy.ts';
import { createMarket, tradeBlock } from '../../src/demo/market.ts';
import { readPoolStates } from '../../src/demo/poolState.ts';
import { createPrng } from '../../src/demo/prng.ts';

describe('pool states followed through events', () => {
  let chain: DemoChain;
  let d: DemoDeployment;
  before(async () => {
    chain = await startDemoChain({ initialDate: new Date(Date.now() - 48 * 3600_000) });
    d = await deployDemo(chain);
  });
  after(() => chain?.stop());

  it('equal the pools read by eth_call after every block, for every family, liquidity changes included', async () => {
    const c = await createDemoClient(chain);
    const start = Math.floor(Date.now() / 1000) - 40 * 3600;
    const m = await createMarket(c, d, createPrng(5), start, null, { onlyTrader: true });
    assert.ok(m.followed);
    const families = new Set(d.pools.map((p) => p.protocol));
    assert.ok(families.size >= 6, [...families].join());
    await c.setAutomine(false);
    try {
      // 30 blocks an hour apart: the reference moves enough that every family trades
      for (let i = 1; i <= 30; i++) {
        await tradeBlock(m, start + i * 3600);
        assert.deepEqual(m.followed.states, await readPoolStates(c, d.multicall3, d.pools), `after block ${i}`);
      }
    } finally {
      await c.setAutomine(true);
    }
    assert.ok(m.counters.swapsV2 > 30 && m.counters.swapsV3 > 0 && m.counters.swapsPancakeV3 > 0 && m.counters.swapsV4 > 0, JSON.stringify(m.counters));
    assert.ok(m.counters.liquidityEvents > 0, 'a liquidity change happened');
  });

  it('a market that is not the only trader reads the pools before every block', async () => {
    const c = await createDemoClient(chain);
    const m = await createMarket(c, d, createPrng(6), Math.floor(Date.now() / 1000));
    assert.equal(m.followed, null);
  });
});
