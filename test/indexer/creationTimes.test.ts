// Creation-block times without `blockTimestamp` (issue 35): on a synthetic 120-day chain of ~2 s
// blocks with runs of equal timestamps and 25-minute halts, every block asked for within 31 days of
// the head gets its exact time; every older one a time in its true UTC day, never decreasing with
// the block number, its age a day or less from the truth and never under 30 days; a log's
// blockTimestamp is taken as it is; the headers read are a few per day, not one per block.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawLog } from '../../src/chain/index.ts';
import { creationBlockTimes } from '../../src/indexer/creationTimes.ts';
import { headerChain } from './helpers/headerChain.ts';

const DAY = 86_400;
const START = 1_690_000_123;
const FLOOR = 5_000;
/** The truth: 2 s blocks, every tenth sharing its parent's time, a 25-minute halt every 2,000,000 blocks. */
const truth = (n: number) => START + 2 * Math.floor((9 * (n - FLOOR)) / 10) + 1500 * Math.floor((n - FLOOR) / 2_000_000);
const HEAD = FLOOR + Math.floor((120 * DAY) / 1.8);

const syntheticChain = () => headerChain(truth, FLOOR, HEAD);

/** The first block at or after `seconds`, by bisection over the truth (the oracle, not the code under test). */
function firstAtOrAfter(seconds: number): number {
  let lo = FLOOR;
  let hi = HEAD;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (truth(mid) >= seconds) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

test('creation times: exact within 31 days of the head, in the true UTC day before, a few headers per day', async () => {
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  // Creation blocks all over the chain (some sharing a block), clusters, the floor, the head's parent.
  const asked = new Set<number>([FLOOR, HEAD - 1]);
  for (let i = 0; i < 3000; i++) asked.add(FLOOR + Math.floor(rand() * (HEAD - FLOOR)));
  for (let i = 0; i < 50; i++) asked.add(3_000_000 + i);
  // A few creation logs carry their time (a node that adds blockTimestamp to some logs).
  const stamped = [...asked].filter((_, i) => i % 97 === 0);
  const logs = stamped.map((n) => ({ blockNumber: n, blockTimestamp: truth(n) }) as RawLog);
  const { chain, stats } = syntheticChain();
  const times = await creationBlockTimes(chain, { logs, blocks: asked, head: { block: HEAD, time: new Date(truth(HEAD) * 1000) }, floor: FLOOR });

  // Exact within 31 days of the head (the score's 30-day tier and a day to spare).
  const recent = firstAtOrAfter(truth(HEAD) - 31 * DAY);
  const blocks = [...asked].sort((a, b) => a - b);
  let previous = -Infinity;
  const oldDays = new Set<number>();
  let old = 0;
  for (const n of blocks) {
    const got = times.timeOf(n).getTime() / 1000;
    const real = truth(n);
    assert.ok(got >= previous, `block ${n}: ${got} before the block below it (${previous})`);
    previous = got;
    if (n >= recent || stamped.includes(n)) {
      assert.equal(got, real, `block ${n}: exact`);
      continue;
    }
    old++;
    oldDays.add(Math.floor(real / DAY));
    assert.equal(Math.floor(got / DAY), Math.floor(real / DAY), `block ${n}: in its true UTC day`);
    assert.ok(Math.abs(got - real) < DAY, `block ${n}: within a day`);
    assert.ok(truth(HEAD) - got >= 30 * DAY, `block ${n}: an age of 30 days or more, as its true age`);
  }
  assert.ok(old > 2000 && oldDays.size > 80, `old blocks on many days (${old} on ${oldDays.size})`);
  const exactRead = blocks.filter((n) => n >= recent && !stamped.includes(n)).length;
  // The recent blocks' own headers, then a few per day of old blocks (the search for the 31-day edge included).
  console.log(`# ${stats.headers} headers, ${exactRead} recent, ${oldDays.size} old days, ${old} old blocks`);
  assert.ok(stats.headers <= exactRead + 8 * oldDays.size + 40, `${stats.headers} headers for ${blocks.length} blocks (${exactRead} recent, ${oldDays.size} days of old ones)`);
  assert.equal(times.headersRead, stats.headers);
});

test('creation times: a chain younger than 31 days is read exactly, block by block', async () => {
  const { chain, stats } = syntheticChain();
  const head = firstAtOrAfter(truth(FLOOR) + 20 * DAY);
  const asked = [FLOOR, FLOOR + 17, head - 5_000, head - 1];
  const times = await creationBlockTimes(chain, { logs: [], blocks: asked, head: { block: head, time: new Date(truth(head) * 1000) }, floor: FLOOR });
  for (const n of asked) assert.equal(times.timeOf(n).getTime() / 1000, truth(n), `block ${n}`);
  assert.ok(stats.headers <= asked.length + 1, `${stats.headers} headers`);
});
