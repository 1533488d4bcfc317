import { test } from 'node:test';
import assert from 'node:assert/strict';
import { id, JsonRpcProvider } from 'ethers';
import { createDemoClient } from '../../src/demo/client.ts';
import { startDemoChain } from '../../src/demo/chain.ts';
import { deployDemo } from '../../src/demo/deploy.ts';
import { openDemo } from '../../src/demo/openDemo.ts';
import { runSnapshotDir } from '../helpers/runSnapshot.ts';
import { readPoolStates } from '../../src/demo/poolState.ts';
import { DEFAULT_SEED, simulateHistory } from '../../src/demo/simulate.ts';
import { createPrng } from '../../src/demo/prng.ts';

const V2_SWAP = id('Swap(address,uint256,uint256,uint256,uint256,address)');
const V3_SWAP = id('Swap(address,address,int256,int256,uint160,uint128,int24)');

async function run(seed: number, hours: number) {
  const chain = await startDemoChain({ initialDate: new Date(Date.now() - (hours + 1) * 3600_000) });
  try {
    const d = await deployDemo(chain);
    const report = await simulateHistory(chain, d, { seed, hours });
    const c = await createDemoClient(chain);
    const states = await readPoolStates(c, d.multicall3, d.pools);
    const [supply] = await c.call(d.networkToken.address, 'NetworkToken', 'totalSupply');
    return { report, reserves: d.pools.map((p) => states.get(p.address)), supply };
  } finally {
    await chain.stop();
  }
}

test('prng is seeded and reproducible', () => {
  const a = createPrng(7);
  const b = createPrng(7);
  const xs = Array.from({ length: 5 }, () => a.next());
  assert.deepEqual(xs, Array.from({ length: 5 }, () => b.next()));
  assert.notDeepEqual(xs, Array.from({ length: 5 }, () => createPrng(8).next()));
});

test('same seed gives the same history; another seed does not', async () => {
  const a = await run(42, 2);
  const b = await run(42, 2);
  const other = await run(43, 2);
  assert.ok(a.report.swaps > 50, `swaps ${a.report.swaps}`);
  assert.equal(a.report.swaps, b.report.swaps);
  assert.equal(a.report.blocks, b.report.blocks);
  assert.deepEqual(a.reserves, b.reserves);
  assert.equal(a.supply, b.supply);
  assert.notDeepEqual(a.reserves, other.reserves);
});

test('the demo npm start runs (its snapshot, loaded into a chain of its own and caught up): 8 days of back-dated history, the last 26 h in fine blocks, with V2 and V3 swaps, trends and burns', async () => {
  // Its share of the start-up budget is measured where the budget is: test/main/npmStart.test.ts.
  // The run's snapshot (made by that file; built here when this file runs alone) is the history
  // simulateHistory made for npm start's default demo.
  const demo = await openDemo({ dir: runSnapshotDir, seed: DEFAULT_SEED });
  try {
    const { history, deployment: d } = demo;
    const caughtUp = await demo.catchUp();
    assert.ok(history.toTimestamp - history.fromTimestamp >= 26 * 3600 - 600, 'spans 26 h');
    assert.ok(history.toTimestamp <= Date.now() / 1000 && Math.abs(caughtUp.toTimestamp - Date.now() / 1000) < 900, 'ends near now');
    assert.equal(history.endsInFuture, false);
    assert.ok(Date.now() / 1000 - history.fromTimestamp >= 8 * 86_400 - 900, 'spans 8 days');
    assert.ok(history.toTimestamp - history.recentFromTimestamp >= 26 * 3600 - 600, 'the last 26 h');
    assert.ok(history.swapsV2 > 500 && history.swapsV3 > 50, JSON.stringify(history));
    assert.ok(history.burns > 0 && history.transfers > 0);

    const rpc = new JsonRpcProvider(demo.chain.url, demo.chain.chainId, { staticNetwork: true });
    try {
      const v2 = await rpc.getLogs({ fromBlock: history.fromBlock, toBlock: history.toBlock, topics: [V2_SWAP] });
      const v3 = await rpc.getLogs({ fromBlock: history.fromBlock, toBlock: history.toBlock, topics: [V3_SWAP] });
      assert.equal(v2.length, history.swapsV2);
      assert.equal(v3.length, history.swapsV3);
      const burns = await rpc.getLogs({ address: d.networkToken.address, fromBlock: history.fromBlock, toBlock: history.toBlock, topics: [id('Transfer(address,address,uint256)'), null, '0x'.padEnd(66, '0')] });
      assert.equal(burns.length, history.burns);
      // Blocks 5-8 h apart before the last 26 h, 7.5-12.5 min apart within them.
      const times: number[] = [];
      for (let n = history.fromBlock; n <= history.toBlock; n++) times.push((await rpc.getBlock(n))!.timestamp);
      const gaps = times.slice(1).map((t, i) => [times[i]!, t - times[i]!] as const);
      const coarse = gaps.filter(([at]) => at < history.recentFromTimestamp);
      assert.ok(coarse.length >= 20 && coarse.length <= 34, `${coarse.length} coarse blocks`);
      assert.ok(coarse.slice(0, -1).every(([, gap]) => gap >= 5 * 3600 && gap <= 8 * 3600), 'coarse spacing');
      assert.ok(gaps.filter(([at]) => at >= history.recentFromTimestamp).every(([, gap]) => gap >= 450 && gap <= 750), 'fine spacing');
    } finally {
      rpc.destroy();
    }

    // Trend tokens moved the right way; dust pools were never traded.
    const c = await createDemoClient(demo.chain);
    const states = await readPoolStates(c, d.multicall3, d.pools);
    const priceOf = (symbol: string) => {
      const p = d.pools.find((x) => x.symbol === symbol && x.role === 'primary');
      assert.ok(p);
      const r = states.get(p.address);
      assert.ok(r);
      return Number((r.quote * 10n ** 36n) / r.base) / 1e36;
    };
    const neb = d.tokens.find((t) => t.symbol === 'NEB');
    const pcat = d.tokens.find((t) => t.symbol === 'PCAT');
    assert.ok(neb && pcat);
    assert.ok(priceOf('NEB/WETH') > (0.85 / 3000) * 1.1, 'NEB up');
    assert.ok(priceOf('PCAT/WETH') * 1e9 < (0.00012 / 3000) * 1e18 * 0.9, 'PCAT down');
    for (const p of d.pools.filter((x) => x.role === 'dust')) {
      const logs = await c.request<unknown[]>('eth_getLogs', [{ address: p.address, fromBlock: `0x${history.fromBlock.toString(16)}`, topics: [V2_SWAP] }]);
      assert.equal(logs.length, 0, p.symbol);
    }

    const live = await demo.startLive({ intervalMs: 150 });
    const before = await c.latestBlock();
    await new Promise((r) => setTimeout(r, 1000));
    await live.stop();
    const afterLive = await c.latestBlock();
    assert.ok(live.counters.blocks >= 2 && live.counters.swapsV2 + live.counters.swapsV3 > 0, JSON.stringify(live.counters));
    assert.ok(afterLive.number > before.number);
    assert.ok(Math.abs(afterLive.timestamp - Date.now() / 1000) < 900, 'live blocks carry current timestamps');
  } finally {
    await demo.stop();
  }
});
