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
