// The simulator's liveFeedEvery: blocks mined past the built head hold a USD feed round every
// liveFeedEvery blocks, while the built chain keeps the profile's cadence (so a follow bench meets
// rounds within minutes without changing the history it bootstraps).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOPIC0 } from '../../sim/abi.ts';
import { SimChain } from '../../sim/chain.ts';
import { createMethods } from '../../sim/rpc.ts';

type Log = { blockNumber: string; topics: string[] };
const hex = (n: number) => '0x' + n.toString(16);

function roundBlocks(chain: SimChain, from: number): number[] {
  const { getLogs } = createMethods(chain);
  const logs = getLogs({ fromBlock: hex(from), toBlock: hex(chain.head), address: chain.world.addresses.aggregator, topics: [TOPIC0.answerUpdated] } as never) as Log[];
  return logs.map((l) => Number(l.blockNumber));
}

test('feed rounds every liveFeedEvery blocks past the built head, the profile cadence before it', () => {
  const built = new SimChain({ profile: 'demo-size', seed: 3, overrides: { tradingBlocks: 700 } });
  const live = new SimChain({ profile: 'demo-size', seed: 3, overrides: { tradingBlocks: 700, liveFeedEvery: 7 } });
  const from = built.world.tradingFrom;
  const head = built.head;
  assert.equal(live.head, head);
  assert.deepEqual(roundBlocks(live, from), roundBlocks(built, from), 'the built chain is unchanged');
  assert.deepEqual(roundBlocks(built, from), [...Array(head + 1).keys()].filter((n) => n >= from && n % 300 === 0));
  // Past the next multiple of 300, so that both cadences have rounds among the mined blocks.
  const count = 300 - ((head + 1) % 300) + 10;
  live.mine(count);
  built.mine(count);
  const mined = [...Array(count).keys()].map((i) => head + 1 + i);
  const every7 = mined.filter((n) => n % 7 === 0);
  assert.ok(every7.length > 1);
  assert.deepEqual(roundBlocks(live, head + 1), every7);
  assert.deepEqual(roundBlocks(built, head + 1), mined.filter((n) => n % 300 === 0));
  assert.equal(roundBlocks(built, head + 1).length, 1, 'the profile cadence goes on past the head without the override');
});
