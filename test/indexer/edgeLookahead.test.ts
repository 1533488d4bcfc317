// Headers read ahead of the moving window edges (src/indexer/exactEdgeTimes.ts, EdgeLookahead):
// a head that jumps (a block 100 s after the one before, as the simulated network and real chains
// sometimes mine) finds the times its edges' slices need already read, instead of reading 100 s
// of history blocks in one step; reading ahead adds no header request overall, and the times
// found are the blocks' own. The model is the test's own chain: block n at a known time.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BlockHeader, ChainClient } from '../../src/chain/index.ts';
import type { Database } from '../../src/db/index.ts';
import { AHEAD_PER_STEP, createEdgeLookahead, readEdgeTimes, type EdgeLookahead } from '../../src/indexer/exactEdgeTimes.ts';
import { openPglite } from '../helpers/pglite.ts';

const BUCKET_MS = 300_000;
/** Block times: every 2 s from T0 (a bucket start), interpolated rows stored in listed buckets. */
const T0 = Date.UTC(2026, 10, 1, 0, 0, 0);
const HISTORY_BLOCKS = 2_400; // 80 minutes of history before the bootstrap block
const BOOTSTRAP = HISTORY_BLOCKS;
const timeOf = (n: number) => T0 + n * 2000;
let db: Database;

before(async () => {
  db = await openPglite();
  // A row per block whose stored time is an interpolation off by up to a second from the block's own.
  const blocks = Array.from({ length: HISTORY_BLOCKS }, (_, i) => i + 1);
  await db.query(
    `INSERT INTO indexer_price_changes (token, block_number, price, observed_at)
     SELECT '0x' || lpad(to_hex(n), 40, '0'), n, 1, to_timestamp(($2::bigint + n * 2000 - (n % 2) * 1000) / 1000.0) FROM unnest($1::bigint[]) AS n`,
    [blocks, T0],
  );
  const buckets = [...new Set(blocks.map((n) => Math.floor(timeOf(n) / BUCKET_MS) * BUCKET_MS))].map((b) => new Date(b).toISOString());
  await db.query(`INSERT INTO indexer_inexact_buckets (bucket) SELECT unnest($1::timestamptz[])`, [buckets]);
});
after(() => db.close());

function countingChain(): ChainClient & { reads: number[][] } {
  const reads: number[][] = [];
  const chain = {
    reads,
    async getBlockHeaders(numbers: readonly number[]): Promise<BlockHeader[]> {
      reads.push([...numbers]);
      return numbers.map((n) => ({ number: n, hash: `0x${n.toString(16)}`, parentHash: `0x${(n - 1).toString(16)}`, timestamp: timeOf(n) / 1000 }));
    },
  };
  return chain as unknown as ChainClient & { reads: number[][] };
}

/**
 * Follows the head in 2 s steps from the bootstrap block, jumping 100 s at step `jumpAt`; the last
 * step jumps 10 minutes. The first step reads the 1 h edge's starting bucket whole (the rule).
 */
async function follow(lookahead: EdgeLookahead | undefined, steps: number, jumpAt: number) {
  const chain = countingChain();
  const cache = new Map<number, Date>();
  const bootstrap = { block: BOOTSTRAP, time: new Date(timeOf(BOOTSTRAP)) };
  const perStep: number[] = [];
  let head = timeOf(BOOTSTRAP);
  for (let step = 0; step <= steps; step++) {
    const previous = new Date(head);
    head += step === steps ? 600_000 : step === jumpAt ? 100_000 : 2000;
    // The last step covers every row read ahead before it, and reads none ahead itself.
    const edge = await readEdgeTimes(db, chain, bootstrap, previous, new Date(head), cache, step === steps ? undefined : lookahead);
    for (const [n, t] of edge.times) assert.equal(t.getTime(), timeOf(n), `block ${n}: its own time`);
    perStep.push(edge.headersRead);
  }
  return { perStep, total: chain.reads.flat().length, distinct: new Set(chain.reads.flat()).size };
}

test('a head jumping 100 s finds its edges\' block times read ahead; reading ahead adds no request', async () => {
  const jumpAt = 200;
  const without = await follow(undefined, 260, jumpAt);
  const ahead = await follow(createEdgeLookahead(), 260, jumpAt);
  // Without reading ahead, the jump's step reads 100 s of blocks of the 1 h edge at once.
  assert.ok(without.perStep[jumpAt]! >= 45, `without: the jump read ${without.perStep[jumpAt]} headers`);
  // Ahead: only what is read ahead in any step, the jump's included.
  assert.ok(ahead.perStep[jumpAt]! <= AHEAD_PER_STEP, `ahead: the jump read ${ahead.perStep[jumpAt]} headers`);
  const most = Math.max(...ahead.perStep.slice(1, -1));
  assert.ok(most <= AHEAD_PER_STEP + 2, `ahead: a 2 s step read at most ${most}`);
  assert.ok(ahead.perStep.slice(1, jumpAt).some((n) => n > 2), 'headers were read ahead before the jump');
  // Every header read ahead was one an edge needed by the end (the last step covers every row read ahead).
  assert.equal(ahead.total, ahead.distinct, 'no header read twice');
  assert.equal(ahead.total, without.total, 'as many headers read in all as without reading ahead');
});
