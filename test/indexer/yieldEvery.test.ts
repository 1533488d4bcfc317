// A long stretch of JavaScript that awaits yieldEvery's pauses lets the process's timers run beside
// it (the writer lock's heartbeat); one that does not, blocks them until it ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { yieldEvery } from '../../src/indexer/yieldEvery.ts';

function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

async function ticksDuring(work: (pause: () => Promise<void> | undefined) => Promise<void>): Promise<number> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  try {
    await work(yieldEvery(20));
  } finally {
    clearInterval(timer);
  }
  return ticks;
}

test('yieldEvery: 400 ms of work in 5 ms units runs a 10 ms timer many times when it awaits the pauses, never when it does not', async () => {
  const withPauses = await ticksDuring(async (pause) => {
    for (let i = 0; i < 80; i++) {
      busy(5);
      const paused = pause();
      if (paused) await paused;
    }
  });
  const without = await ticksDuring(async () => {
    for (let i = 0; i < 80; i++) busy(5);
  });
  assert.equal(without, 0);
  assert.ok(withPauses >= 8, `the timer ran ${withPauses} times`);
});

test('yieldEvery: no pause before the interval has passed', () => {
  const pause = yieldEvery(1000);
  assert.equal(pause(), undefined);
});
