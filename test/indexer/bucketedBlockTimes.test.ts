// Bucketed block times (issue 35) against a synthetic chain with irregular block times: 2 s blocks,
// runs of equal timestamps, gaps of seconds to a 17-minute halt (buckets without a block), a block
// exactly on a boundary. The search finds the exact first block of every 5-minute bucket; every
// interpolated time is in its block's true bucket, on the true side of the window edges, never
// decreasing, independent of how the history is cut into ranges; headers read stay far below one per block.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUCKET_SECONDS, bucketedBlockTimes, bucketStartOf, emptyBlockTimeCache } from '../../src/indexer/bucketedBlockTimes.ts';
import { findFirstBlockAt, HeaderTimes } from '../../src/indexer/findFirstBlockAt.ts';
import { headerChain } from './helpers/headerChain.ts';

const START = 1_700_000_000; // a multiple of 300? 1_700_000_000 / 300 = 5_666_666.67: no
const FLOOR = 1000;

/** Block FLOOR.. with irregular times (deterministic). */
function syntheticTimes(blocks: number): number[] {
  const out: number[] = [];
  let t = START;
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < blocks; i++) {
    out.push(t);
    const r = rand();
    if (i === 3000) t += 25 * 60; // a halt: buckets without a block
    else if (r < 0.1) t += 0; // equal timestamps
    else if (r < 0.15) t += 5 + Math.floor(rand() * 40); // a gap
    else t += 2;
  }
  return out;
}

function syntheticChain(times: number[]) {
  const timeOf = (n: number) => times[n - FLOOR]!;
  const last = FLOOR + times.length - 1;
  return { ...headerChain(timeOf, FLOOR, last), timeOf, last };
}

const BLOCKS = 12_000;
const times = syntheticTimes(BLOCKS);
// A block exactly on a boundary: its time a multiple of 300 and the block before it earlier.
const onBoundary = times.findIndex((t, i) => i > 0 && t % BUCKET_SECONDS === 0 && times[i - 1]! < t);

test('synthetic chain: equal timestamps, gaps, a halt spanning buckets, a block exactly on a boundary', () => {
  assert.ok(onBoundary > 0, 'a block exactly on a boundary');
  assert.ok(times.some((t, i) => i > 0 && t === times[i - 1]), 'equal timestamps');
  const buckets = new Set(times.map((t) => Math.floor(t / BUCKET_SECONDS)));
  const span = Math.floor(times.at(-1)! / BUCKET_SECONDS) - Math.floor(times[0]! / BUCKET_SECONDS) + 1;
  assert.ok(span - buckets.size >= 3, 'buckets without a block');
});

test('the search finds the exact first block at or after every 5-minute boundary, with a few headers per boundary', async () => {
  const { chain, stats, timeOf, last } = syntheticChain(times);
  const known = new HeaderTimes(chain, [[last, timeOf(last)]]);
  let boundaries = 0;
  const first = Math.floor(times[0]! / BUCKET_SECONDS) * BUCKET_SECONDS;
  for (let t = first; t <= times.at(-1)! + BUCKET_SECONDS; t += BUCKET_SECONDS) {
    const found = await findFirstBlockAt(known, t, FLOOR, last);
    const i = times.findIndex((s) => s >= t);
    assert.equal(found, i < 0 ? null : FLOOR + i, `boundary ${t}`);
    boundaries++;
  }
  // Exactly on a boundary: that block itself.
  assert.equal(await findFirstBlockAt(known, times[onBoundary]!, FLOOR, last), FLOOR + onBoundary);
  const perBoundary = stats.headers / boundaries;
  process.stdout.write(`# search: ${stats.headers} headers for ${boundaries} boundaries (${perBoundary.toFixed(2)} per boundary) over ${BLOCKS} blocks\n`);
  assert.ok(perBoundary <= 7, `headers per boundary: ${perBoundary}`);
});

test('on a chain paced like the simulator\'s linea profiles (1–4 s blocks, a rare 20–119 s pause), under 5 headers per 5-minute boundary', async () => {
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const paced: number[] = [];
  for (let i = 0, t = START; i < 50_000; i++) {
    paced.push(t);
    const r = rand();
    t += r < 0.001 ? 20 + Math.floor(rand() * 100) : r < 0.25 ? 1 : r < 0.7 ? 2 : r < 0.9 ? 3 : 4;
  }
  const { chain, stats, last } = syntheticChain(paced);
  const known = new HeaderTimes(chain, [[last, paced.at(-1)!]]);
  let boundaries = 0;
  for (let t = Math.ceil(paced[0]! / BUCKET_SECONDS) * BUCKET_SECONDS; t <= paced.at(-1)!; t += BUCKET_SECONDS) {
    const found = await findFirstBlockAt(known, t, FLOOR, last);
    assert.equal(found, FLOOR + paced.findIndex((s) => s >= t));
    boundaries++;
  }
  const perBoundary = stats.headers / boundaries;
  process.stdout.write(`# linea-paced: ${stats.headers} headers for ${boundaries} boundaries (${perBoundary.toFixed(2)} per boundary, ${(50_000 / boundaries).toFixed(0)} blocks per bucket)\n`);
  assert.ok(perBoundary < 5, `headers per boundary: ${perBoundary}`);
});

test('the search ends by bisection on a chain interpolation guesses badly (one huge gap), still exact', async () => {
  // 5000 blocks one second apart, then a jump of a day, then 5000 more: interpolation lands far off.
  const skewed = Array.from({ length: 10_000 }, (_, i) => START + i + (i >= 5000 ? 86_400 : 0));
  const { chain, stats, last } = syntheticChain(skewed);
  const known = new HeaderTimes(chain, [[FLOOR, skewed[0]!], [last, skewed.at(-1)!]]);
  const target = START + 4000;
  assert.equal(await findFirstBlockAt(known, target, FLOOR, last), FLOOR + 4000);
  assert.ok(stats.headers <= 2 * 2 * Math.ceil(Math.log2(10_000)), `bounded by bisection: ${stats.headers} headers`);
});

/** Times of every block of [lowest, top] filled newest first in ranges of `size` blocks, as fillHistory asks for them. */
async function fill(size: number, lowest: number, top: number, edgesBack: number[], stamped: (n: number) => boolean = () => false) {
  const { chain, stats, timeOf } = syntheticChain(times);
  const cache = emptyBlockTimeCache();
  const got = new Map<number, number>();
  let high = { block: top, time: new Date(timeOf(top) * 1000) };
  let headers = 0;
  while (high.block >= lowest) {
    const b = high.block;
    // As fillHistory: the range starts at its bucket's first block; `lowest` is the start block.
    const aligned = await bucketStartOf(chain, Math.max(lowest, b - size + 1), lowest, top, cache);
    headers += aligned.headersRead;
    const a = aligned.block;
    const low = a > lowest ? a - 1 : a;
    const blocks = Array.from({ length: b - low + 1 }, (_, i) => low + i);
    const logs = blocks.filter((n) => n >= a && stamped(n)).map((n) => ({
      address: '0x', topics: [], data: '0x', blockNumber: n, blockHash: '0x', transactionHash: '0x', logIndex: 0, blockTimestamp: timeOf(n),
    }));
    const result = await bucketedBlockTimes(chain, { logs, blocks, low, high, floor: lowest, limit: { block: top }, edgesBack, cache });
    headers += result.headersRead;
    for (const n of blocks) if (n >= a) got.set(n, Math.floor(result.timeOf(n).getTime() / 1000));
    if (a === lowest) break;
    high = { block: a - 1, time: result.timeOf(a - 1) };
  }
  assert.equal(headers, stats.headers, 'headersRead counts every header read');
  return { got, headers };
}

test('interpolated times: each in its true 5-minute bucket and on the true side of each edge, never decreasing, independent of the ranges; headers far below one per block', async () => {
  const { timeOf } = syntheticChain(times);
  const top = FLOOR + BLOCKS - 1;
  const lowest = FLOOR + 200;
  // Window edges back from the head, not on a 5-minute boundary.
  const back = [3600, 6 * 3600, ...Array.from({ length: 30 }, (_, k) => 7 * 3600 + 1013 * k)];
  const edges = back.map((s) => timeOf(top) - s);
  const { got, headers } = await fill(700, lowest, top, back);
  let previous = -Infinity;
  let exactSeconds = 0;
  let maxError = 0;
  for (let n = lowest; n <= top; n++) {
    const t = got.get(n)!;
    const truth = timeOf(n);
    assert.equal(Math.floor(t / BUCKET_SECONDS), Math.floor(truth / BUCKET_SECONDS), `block ${n}: ${t} in the bucket of ${truth}`);
    for (const edge of edges) assert.equal(t >= edge, truth >= edge, `block ${n}: on the true side of edge ${edge}`);
    assert.ok(t >= previous, `block ${n}: ${t} after ${previous}`);
    previous = t;
    if (t === truth) exactSeconds++;
    maxError = Math.max(maxError, Math.abs(t - truth));
  }
  const blocks = top - lowest + 1;
  const buckets = Math.ceil((timeOf(top) - timeOf(lowest)) / BUCKET_SECONDS);
  process.stdout.write(`# ${blocks} blocks in ${buckets} buckets: ${headers} headers (${(headers / buckets).toFixed(2)} per bucket, 1 per ${(blocks / headers).toFixed(0)} blocks); ${exactSeconds} times exact to the second, largest error ${maxError} s\n`);
  assert.ok(headers * 10 < blocks, `headers ${headers} for ${blocks} blocks`);
  assert.ok(headers <= 8 * buckets, `headers per bucket bounded: ${headers} for ${buckets} buckets`);
  assert.ok(maxError < BUCKET_SECONDS);

  // Another cut into ranges gives the same times (a block's time depends on its bucket's ends only).
  const other = await fill(263, lowest, top, back);
  assert.deepEqual(other.got, got);
});

test('some logs with blockTimestamp: those blocks exact, the others still in their bucket, never decreasing', async () => {
  const { timeOf } = syntheticChain(times);
  const top = FLOOR + BLOCKS - 1;
  const lowest = FLOOR + 200;
  const stamped = (n: number) => n % 7 === 0;
  const { got } = await fill(500, lowest, top, [3600], stamped);
  let previous = -Infinity;
  for (let n = lowest; n <= top; n++) {
    const t = got.get(n)!;
    if (stamped(n)) assert.equal(t, timeOf(n), `block ${n}: its log's time`);
    assert.equal(Math.floor(t / BUCKET_SECONDS), Math.floor(timeOf(n) / BUCKET_SECONDS), `block ${n}`);
    assert.ok(t >= previous, `block ${n}: ${t} after ${previous}`);
    previous = t;
  }
});

test('with blockTimestamp in every log, only the block before the range is read', async () => {
  const { chain, stats, timeOf } = syntheticChain(times);
  const logs = [5000, 5001, 5100].map((n) => ({
    address: '0x', topics: [], data: '0x', blockNumber: n, blockHash: '0x', transactionHash: '0x', logIndex: 0, blockTimestamp: timeOf(n),
  }));
  const result = await bucketedBlockTimes(chain, {
    logs, blocks: [4999, 5000, 5001, 5100], low: 4999, high: { block: 5200, time: new Date(timeOf(5200) * 1000) }, floor: FLOOR, limit: { block: 9000 },
  });
  assert.equal(result.headersRead, 1);
  assert.equal(stats.headers, 1);
  for (const n of [4999, 5000, 5001, 5100]) assert.equal(result.timeOf(n).getTime(), timeOf(n) * 1000);
});
