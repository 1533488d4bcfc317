// Issue 30 (5): an upstream call is shared only with identical requests arriving within the join
// window of its start; a later one starts a call of its own, and the older call's end does not
// remove the newer one.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { singleFlight } from '../../src/rpc/singleFlight.ts';

it('shares a call within the window only', async () => {
  let clock = 0;
  const flight = singleFlight({ joinWindowMs: 250, now: () => clock });
  const calls: ((value: string) => void)[] = [];
  const run = () => new Promise<string>((resolve) => calls.push(resolve));
  const first = flight('k', run);
  clock = 200;
  const joined = flight('k', run);
  assert.equal(calls.length, 1, 'joined within the window');
  clock = 300;
  const late = flight('k', run);
  assert.equal(calls.length, 2, 'a request after the window starts its own call');
  calls[1]!('fresh');
  assert.equal(await late, 'fresh', 'answered without waiting for the old call');
  calls[0]!('old');
  assert.equal(await first, 'old');
  assert.equal(await joined, 'old');
  clock = 310;
  const next = flight('k', run);
  assert.equal(calls.length, 3, 'settled calls are not shared');
  calls[2]!('again');
  assert.equal(await next, 'again');
});
