// The index bench's check against the truth compares the 24 h swap counts only once the 24 h window
// is filled (before, the API answers null and the stored count is partial), and says so in its report.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAgainstTruth, type Query } from '../../bench/index/checkTruth.ts';
import type { Truth } from '../../sim/truth.ts';

const truth = { profile: 'p', seed: 1, chainId: 1, head: 10, headTime: 0, feed: null, pools: [], tokens: [{ address: '0xa', symbol: 'A', swaps24h: 5 }] } as unknown as Truth;
const query = (async (sql: string) => (sql.includes('FROM tokens') ? [{ address: '0xa', swaps: 2, price: null, source: null }] : [])) as Query;

test('24 h swap counts: compared by default, not compared (and not a mismatch) while the window is unfilled', async () => {
  const compared = await checkAgainstTruth(query, truth);
  assert.equal(compared.ok, false);
  assert.equal(compared.tokens.swapMismatches, 1);
  assert.match(compared.examples[0]!, /A: 2 swaps in 24 h ≠ truth 5/);
  const unfilled = await checkAgainstTruth(query, truth, { swapCounts: false });
  assert.equal(unfilled.ok, true);
  assert.deepEqual(unfilled.tokens, { checked: 1, missing: 0, swapMismatches: 0, swapsCompared: false });
});
