// The follow loop's polls (src/indexer/followPacer.ts) against a model of a chain on a simulated
// clock: blocks arrive on their own schedule, a poll finds every block arrived by then, a step
// that found blocks stores them `stepMs` later. Measured: how long after its arrival each block is
// found, how many blocks the chain is ahead of the stored head at any time, and empty polls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFollowPacer } from '../../src/indexer/followPacer.ts';

/** maxAhead: the chain's largest lead over the stored head once settled (from the 20th block's arrival). */
type Run = { foundAfterMs: number[]; maxAhead: number; emptyPolls: number; polls: number };

function follow(arrivals: number[], options: { intervalMs: number; stepMs: number; emptyStepMs?: number; startAt: number; until: number }): Run {
  const pacer = createFollowPacer(options.intervalMs);
  const foundAfterMs: number[] = [];
  let seen = 0; // blocks found (arrivals[0..seen) are stored or being stored)
  let stored = 0;
  let maxAhead = 0;
  let emptyPolls = 0;
  let polls = 0;
  const aheadAt = (t: number) => arrivals.filter((a) => a <= t).length - stored;
  for (let t = options.startAt; t < options.until; ) {
    polls++;
    const arrived = arrivals.filter((a) => a <= t).length;
    const found = arrived > seen;
    for (let i = seen; i < arrived; i++) foundAfterMs.push(t - arrivals[i]!);
    // The chain's lead just before this step stores what it found (the worst moment).
    const end = t + (found ? options.stepMs : (options.emptyStepMs ?? 30));
    if (arrivals.length > 20 && t >= arrivals[20]!) maxAhead = Math.max(maxAhead, aheadAt(end - 1));
    seen = arrived;
    if (found) stored = arrived;
    else emptyPolls++;
    t = end + pacer.delayAfter({ startedAt: t, foundBlocks: found }, end);
  }
  return { foundAfterMs, maxAhead, emptyPolls, polls };
}

const regular = (intervalMs: number, count: number, offset = 0) => Array.from({ length: count }, (_, i) => offset + i * intervalMs);

test('regular 2 s blocks: after settling, every block is found within an eighth of the interval after an empty poll, the chain is at most one block ahead, an empty poll about every two to three blocks', () => {
  for (const startAt of [0, 137, 999, 1500, 1999]) {
    for (const stepMs of [300, 900, 1600]) {
      const arrivals = regular(2000, 400, 50);
      const run = follow(arrivals, { intervalMs: 2000, stepMs, startAt, until: 400 * 2000 });
      // Settled after at most 2000 / 125 = 16 blocks of drift; judged from the 20th.
      const settled = run.foundAfterMs.slice(20);
      // An eighth of the interval after an empty poll's end (the model's empty poll takes 30 ms).
      assert.ok(Math.max(...settled) <= 250 + 30, `start ${startAt}, step ${stepMs}: found at most 280 ms late (worst ${Math.max(...settled)})`);
      assert.equal(run.maxAhead, 1, `start ${startAt}, step ${stepMs}: at most 1 block ahead`);
      assert.ok(run.emptyPolls <= 0.5 * arrivals.length, `start ${startAt}, step ${stepMs}: ${run.emptyPolls} empty polls for ${arrivals.length} blocks`);
    }
  }
});

test('the former rule for comparison: a whole interval after each step finds blocks up to an interval plus a step late', () => {
  // Waiting intervalMs after the step's end: the model of the loop before the pacer.
  const arrivals = regular(2000, 300, 50);
  const foundAfter: number[] = [];
  let seen = 0;
  for (let t = 0; t < 300 * 2000; ) {
    const arrived = arrivals.filter((a) => a <= t).length;
    for (let i = seen; i < arrived; i++) foundAfter.push(t - arrivals[i]!);
    const end = t + (arrived > seen ? 900 : 30);
    seen = arrived;
    t = end + 2000;
  }
  const pacer = follow(arrivals, { intervalMs: 2000, stepMs: 900, startAt: 0, until: 300 * 2000 }).foundAfterMs.slice(20);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  assert.ok(Math.max(...foundAfter) > 2000, `the former rule found a block ${Math.max(...foundAfter)} ms late`);
  assert.ok(mean(pacer) * 5 < mean(foundAfter), `mean delay: pacer ${mean(pacer).toFixed(0)} ms, former ${mean(foundAfter).toFixed(0)} ms`);
});

test('irregular blocks (1.5 to 2.5 s apart): found within half an interval on average, never more than an interval late', () => {
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const arrivals: number[] = [];
  for (let t = 0, i = 0; i < 400; i++) arrivals.push((t += 1500 + next() * 1000));
  const run = follow(arrivals, { intervalMs: 2000, stepMs: 900, startAt: 0, until: arrivals.at(-1)! + 1 });
  const settled = run.foundAfterMs.slice(20);
  const mean = settled.reduce((a, b) => a + b, 0) / settled.length;
  assert.ok(mean <= 500, `mean ${mean.toFixed(0)} ms`);
  assert.ok(Math.max(...settled) <= 2000, `worst ${Math.max(...settled)} ms`);
  assert.ok(run.maxAhead <= 2, `at most 2 blocks ahead (${run.maxAhead})`);
  assert.ok(run.emptyPolls <= arrivals.length, `${run.emptyPolls} empty polls for ${arrivals.length} blocks`);
});

test('an idle chain is asked once an interval after a few quicker tries; a step longer than the interval is followed at once', () => {
  const idle = follow([], { intervalMs: 2000, stepMs: 900, startAt: 0, until: 60_000 });
  // 250, 250, 500, 1000, then 2000 each: 4 tries in the first 2 s, then one an interval.
  assert.ok(idle.polls <= 4 + 30, `${idle.polls} polls in a minute of no blocks`);
  const pacer = createFollowPacer(2000);
  assert.equal(pacer.delayAfter({ startedAt: 0, foundBlocks: true }, 2500), 0);
  assert.equal(pacer.delayAfter({ startedAt: 0, foundBlocks: true }, 900), 975);
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => pacer.delayAfter({ startedAt: 0, foundBlocks: false }, 0)), [250, 250, 500, 1000, 2000, 2000]);
  assert.equal(pacer.delayAfter({ startedAt: 10_000, foundBlocks: true }, 10_100), 1775, 'a found block ends the backoff');
});
