// The simulator declares its events on its own (its truth must not come from the indexer): every
// topic0 the indexer's family registry reads must be one the simulator emits, under the same signature.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOPICS } from '../../src/indexer/families/events.ts';
import { FAMILIES } from '../../src/indexer/families/index.ts';
import { TOPIC0 } from '../../sim/abi.ts';

test("the simulator's topic0s are the indexer's, event by event", () => {
  const simTopics = new Set(Object.values(TOPIC0));
  const same = ['pairCreated', 'solidlyPairCreated', 'poolCreated', 'algebraPool', 'syncSwapPoolCreated', 'v2Swap', 'v2Sync', 'sync256', 'v3Swap',
    'pancakeV3Swap', 'v3Initialize', 'v3Mint', 'v3Burn', 'v4Initialize', 'v4Swap', 'v4ModifyLiquidity', 'answerUpdated'] as const;
  for (const name of same) assert.equal(TOPIC0[name], TOPICS[name], name);
  // Every family's creation and pool topics are emitted (Algebra Integral's 9-field Swap is the one the simulator leaves out).
  const missing = FAMILIES.flatMap((f) => [f.creationTopic, ...f.poolTopics]).filter((t) => !simTopics.has(t) && t !== TOPICS.algebraSwap9);
  assert.deepEqual(missing, []);
});
