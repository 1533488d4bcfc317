// The held-data gate's staleness mark: a request that stopped waiting for a late check answers
// marked stale, even when the wall clock says the wait bound has not passed yet. Timers run on
// the monotonic clock, whole milliseconds apart from Date.now()'s (and the wall clock may be
// set back): CI saw an unmarked answer during a database partition from that difference.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHeldDataGate } from '../../src/readModel/heldDataGate.ts';

/** Runs `work` with Date.now() frozen at its value on entry: a wall clock that does not advance. */
async function withFrozenClock<T>(work: () => Promise<T>): Promise<T> {
  const realNow = Date.now;
  const frozen = realNow();
  Date.now = () => frozen;
  try {
    return await work();
  } finally {
    Date.now = realNow;
  }
}

describe('held-data gate', () => {
  it('a request that stopped waiting for a late check is marked stale, whatever the wall clock reads', async () => {
    let release!: () => void;
    const hanging = new Promise<void>((r) => (release = r));
    let loaded = false;
    const gate = createHeldDataGate(() => (loaded ? hanging : ((loaded = true), Promise.resolve())), () => loaded);
    await gate.start();
    await new Promise((r) => setTimeout(r, 5));
    const waitMs = 50;
    const stale = await withFrozenClock(async () => {
      await gate.beforeRequest(0, waitMs, 'test data');
      return gate.stale(waitMs);
    });
    assert.ok(stale, 'the request stopped waiting: its answer is marked stale');
    release();
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(gate.stale(waitMs), false, 'fresh once the check is done');
  });

  it('a check that ends within the bound leaves the answer unmarked', async () => {
    let loads = 0;
    const gate = createHeldDataGate(async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 10));
    }, () => loads > 0);
    await gate.start();
    await new Promise((r) => setTimeout(r, 5));
    await gate.beforeRequest(1, 200, 'test data');
    assert.equal(loads, 2, 'the due check ran');
    assert.equal(gate.stale(200), false);
  });

  it('reports a failed check once per outage, and none once stopped (a check under way at shutdown)', async () => {
    const reported: unknown[] = [];
    let mode: 'ok' | 'fail' | 'hold' = 'ok';
    let release!: () => void;
    const gate = createHeldDataGate(
      () =>
        mode === 'ok' ? Promise.resolve()
        : mode === 'fail' ? Promise.reject(new Error('database down'))
        : new Promise<void>((_, reject) => (release = () => reject(new Error('pool ended')))),
      () => true,
      (error) => reported.push(error),
    );
    await gate.start();
    mode = 'fail';
    await assert.rejects(gate.start());
    await assert.rejects(gate.start());
    assert.equal(reported.length, 1, 'once per outage');
    mode = 'ok';
    await gate.start();
    mode = 'hold';
    const underWay = gate.start();
    gate.stop();
    release();
    await assert.rejects(underWay);
    assert.equal(reported.length, 1, 'nothing reported after stop');
  });
});
