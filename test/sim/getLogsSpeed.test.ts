// The simulated node's speed (issue 34): a topic-filtered eth_getLogs over 2,000 dense blocks
// answers in ≤ 250 ms: the time from the request to its answer text on the node's thread (its
// process's CPU time is printed: it adds the garbage collector's helper threads, here 1.5-2.5x).
// scripts/run-tests.mjs runs this file alone (SOLO), so that no other process shares the cores.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { TOPIC0 } from '../../sim/abi.ts';
import { SimChain } from '../../sim/chain.ts';
import { startSimServer, type SimServer } from '../../sim/server.ts';

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params });
const hex = (n: number) => '0x' + n.toString(16);

const servers: SimServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

test('a topic-filtered eth_getLogs over 2,000 dense blocks is answered in ≤ 250 ms by the node (cold, best of 10)', async () => {
  // Linea density: 150,000 swaps a day, about 3.5 a block.
  const dense = new SimChain({ profile: 'demo-size', seed: 5, overrides: { tradingBlocks: 2000, swapsPerDay: 150_000 } });
  const s = await startSimServer(dense);
  servers.push(s);
  const topics = [[TOPIC0.v2Swap, TOPIC0.v2Sync, TOPIC0.sync256, TOPIC0.v3Swap, TOPIC0.pancakeV3Swap, TOPIC0.v4Swap, TOPIC0.v3Mint, TOPIC0.v3Burn, TOPIC0.v4ModifyLiquidity]];
  const filter = { fromBlock: hex(dense.world.tradingFrom), toBlock: hex(dense.head), topics };
  const times: number[] = [];
  const answering: number[] = [];
  const cpu: number[] = [];
  let count = 0;
  // Best of 10: a garbage collection of the client's last answer may fall in any one.
  for (let i = 0; i < 10; i++) {
    dense.clearCache();
    const before = s.stats();
    const started = performance.now();
    const answer = await post(s.url, call('eth_getLogs', [filter]));
    times.push(performance.now() - started);
    const after = s.stats();
    answering.push(after.answerMs - before.answerMs);
    cpu.push(after.cpuMs - before.cpuMs);
    count = answer.body.result.length;
  }
  assert.ok(count > 10_000, `${count} logs`);
  const fmt = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(', ');
  console.log(`eth_getLogs over 2,000 dense blocks: ${count} logs; answered in ${fmt(answering)} ms; node CPU ${fmt(cpu)} ms; client wall ${fmt(times)} ms`);
  assert.ok(Math.min(...answering) <= 250, `best of 10: answered in ${Math.min(...answering).toFixed(0)} ms`);
});
