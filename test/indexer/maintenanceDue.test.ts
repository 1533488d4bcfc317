// Retention and pool-state pruning run in the batch that crosses a multiple of their period, except
// that a batch repricing much of the catalogue (a USD feed round) leaves them to the next batch,
// which runs them whatever it reprices: never two deferrals in a row, nothing lost.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAINTENANCE_DEFERRED_ABOVE, maintenanceDue } from '../../src/indexer/maintenanceDue.ts';

const periods = { retentionEveryBlocks: 1000, pruneEveryBlocks: 1000 };
const quiet = 12;
const feedRound = MAINTENANCE_DEFERRED_ABOVE + 1;

test('a batch crossing a multiple runs retention and pruning; one that does not, neither', () => {
  assert.deepEqual(maintenanceDue({ from: 2000, to: 2000, priceChanges: quiet }, periods, undefined), { run: { retention: true, prune: true }, leave: undefined });
  assert.deepEqual(maintenanceDue({ from: 2001, to: 2999, priceChanges: quiet }, periods, undefined), { run: { retention: false, prune: false }, leave: undefined });
  assert.deepEqual(maintenanceDue({ from: 1500, to: 2500, priceChanges: quiet }, { retentionEveryBlocks: 1000, pruneEveryBlocks: 3000 }, undefined),
    { run: { retention: true, prune: false }, leave: undefined });
});

test('a feed round that falls due leaves it to the next batch, which runs it even when it is a feed round too', () => {
  const first = maintenanceDue({ from: 3000, to: 3000, priceChanges: feedRound }, periods, undefined);
  assert.deepEqual(first, { run: { retention: false, prune: false }, leave: { retention: true, prune: true } });
  assert.deepEqual(maintenanceDue({ from: 3001, to: 3001, priceChanges: quiet }, periods, first.leave), { run: { retention: true, prune: true }, leave: undefined });
  assert.deepEqual(maintenanceDue({ from: 3001, to: 3001, priceChanges: feedRound }, periods, first.leave), { run: { retention: true, prune: true }, leave: undefined });
});

test('a feed round with nothing due leaves nothing; a round of exactly the threshold runs its maintenance', () => {
  assert.deepEqual(maintenanceDue({ from: 3001, to: 3001, priceChanges: feedRound }, periods, undefined), { run: { retention: false, prune: false }, leave: undefined });
  assert.deepEqual(maintenanceDue({ from: 4000, to: 4000, priceChanges: MAINTENANCE_DEFERRED_ABOVE }, periods, undefined), { run: { retention: true, prune: true }, leave: undefined });
});
