// The history range's size: halved after a range failed for the database, never below the floor,
// kept after other failures, and doubled back to the configured size after fast writes only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHistoryRangeSize } from '../../src/indexer/historyRangeSize.ts';

const timeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });

test('a range that failed for the database is halved down to the floor; other failures keep the size', () => {
  const size = createHistoryRangeSize({ maxBlocks: 4000, writeTimeoutMs: 15_000, minBlocks: 600 });
  assert.equal(size.blocks(), 4000);
  size.failed(new TypeError('a bug, not the database'));
  assert.equal(size.blocks(), 4000);
  size.failed(timeout);
  assert.equal(size.blocks(), 2000);
  size.failed(Object.assign(new Error('terminating connection due to idle-in-transaction timeout'), { code: '25P03' }));
  assert.equal(size.blocks(), 1000);
  size.failed(new Error('Connection terminated unexpectedly'));
  assert.equal(size.blocks(), 600);
  size.failed(timeout);
  assert.equal(size.blocks(), 600);
});

test('the size grows back after writes under a quarter of the timeout, up to the configured size', () => {
  const size = createHistoryRangeSize({ maxBlocks: 4000, writeTimeoutMs: 15_000 });
  for (let i = 0; i < 5; i++) size.failed(timeout);
  assert.equal(size.blocks(), 125);
  size.stored(3_750);
  assert.equal(size.blocks(), 125, 'a write of a quarter of the timeout does not grow it');
  size.stored(3_749);
  assert.equal(size.blocks(), 250);
  for (let i = 0; i < 10; i++) size.stored(10);
  assert.equal(size.blocks(), 4000);
  for (let i = 0; i < 20; i++) size.failed(timeout);
  assert.equal(size.blocks(), 1, 'the default floor is one block');
});

test('slow writes grow the size back after probeAfter ranges in a row; a fault after a probe doubles the wait', () => {
  const size = createHistoryRangeSize({ maxBlocks: 4000, writeTimeoutMs: 15_000, probeAfter: 3 });
  const slow = 12_000;
  size.failed(timeout);
  assert.equal(size.blocks(), 2000);
  size.stored(slow);
  size.stored(slow);
  assert.equal(size.blocks(), 2000, 'two slow ranges: not yet');
  size.stored(slow);
  assert.equal(size.blocks(), 4000, 'the third slow range in a row probes the larger size');
  size.failed(timeout);
  assert.equal(size.blocks(), 2000, 'the probe failed: halved again');
  for (let i = 0; i < 5; i++) size.stored(slow);
  assert.equal(size.blocks(), 2000, 'after a failed probe, five ranges are not enough');
  size.stored(slow);
  assert.equal(size.blocks(), 4000, 'the sixth is (the wait doubled)');
  size.stored(slow);
  assert.equal(size.blocks(), 4000, 'at the configured size it stays');
  size.failed(timeout);
  size.stored(slow);
  size.failed(timeout);
  assert.equal(size.blocks(), 1000, 'a fault that is not a probe\'s does not lengthen the wait');
  for (let i = 0; i < 5; i++) size.stored(slow);
  assert.equal(size.blocks(), 1000);
  size.stored(slow);
  assert.equal(size.blocks(), 2000);
});
