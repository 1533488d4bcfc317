// Which current prices a retiming of history rows moves (issue 35, exact window edges), against a
// model that recomputes every token's price times from its rows in block order before and after:
// a token whose latest change got a new time is named with that time, and every token whose
// current value's start time moved is among those whose value start is read again. Rows hold
// interpolated times inside their block's true 5-minute bucket, as the bucketed history fill
// stores them; random tokens, runs of equal prices, retimings of random blocks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUCKET_MS, bucketOf, pricesRetimed } from '../../src/indexer/exactEdgeTimes.ts';

type Row = { block: number; price: string | null; trueMs: number; storedMs: number };

/** The price's times as the indexer derives them from the rows (block order). */
function priceTimes(rows: readonly Row[]): { blockNumber: number; observedMs: number; valueSinceMs: number } {
  const last = rows[rows.length - 1]!;
  let start = rows.length - 1;
  while (start > 0 && rows[start - 1]!.price === last.price) start--;
  return { blockNumber: last.block, observedMs: last.storedMs, valueSinceMs: rows[start]!.storedMs };
}

test('the prices named are those whose times the retimed rows move, checked against a block-order model', () => {
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const T0 = 1_700_000_100_000;
  let checkedLatest = 0;
  let checkedValueStart = 0;
  for (let round = 0; round < 400; round++) {
    const history = new Map<string, Row[]>();
    const blocks = 40 + Math.floor(rand() * 200);
    for (let t = 0; t < 1 + Math.floor(rand() * 8); t++) {
      const token = `0x${String(t).padStart(40, '0')}`;
      const rows: Row[] = [];
      let price: string | null = '1';
      for (let b = 0; b < blocks; b++) {
        if (rand() > 0.3) continue;
        // Runs of equal prices (a change of source alone), some null prices.
        const r = rand();
        if (r < 0.4) price = String(1 + Math.floor(rand() * 5));
        else if (r < 0.45) price = null;
        const trueMs = T0 + b * 2000 + Math.floor(rand() * 2000);
        // An interpolated time: anywhere inside the block's true bucket.
        const storedMs = bucketOf(trueMs) + Math.floor(rand() * BUCKET_MS);
        rows.push({ block: b, price, trueMs, storedMs: rand() < 0.3 ? trueMs : storedMs });
      }
      if (rows.length > 0) history.set(token, rows);
    }
    const before = new Map([...history].map(([token, rows]) => [token, priceTimes(rows)] as const));
    const prices = new Map([...before].map(([token, p]) => [token, { blockNumber: p.blockNumber, valueSince: new Date(p.valueSinceMs) }] as const));
    // Retime random blocks: every row of a block takes its own time (as applyExactTimes does), and
    // only rows whose time moved are reported.
    const retimedBlocks = new Set<number>();
    for (let b = 0; b < blocks; b++) if (rand() < 0.15) retimedBlocks.add(b);
    const retimed = [];
    for (const [token, rows] of history) {
      for (const row of rows) {
        if (!retimedBlocks.has(row.block) || row.storedMs === row.trueMs) continue;
        row.storedMs = row.trueMs;
        retimed.push({ token, blockNumber: row.block, observedAt: new Date(row.trueMs) });
      }
    }
    const moved = pricesRetimed(prices, retimed);
    for (const [token, rows] of history) {
      const old = before.get(token)!;
      const now = priceTimes(rows);
      if (now.observedMs !== old.observedMs) {
        assert.equal(moved.latest.get(token)?.getTime(), now.observedMs, `${token}'s latest change retimed`);
        checkedLatest++;
      } else assert.equal(moved.latest.has(token), false, `${token}'s latest change kept its time`);
      if (now.valueSinceMs !== old.valueSinceMs) {
        assert.ok(moved.valueStart.includes(token), `${token}'s value start retimed, round ${round}`);
        checkedValueStart++;
      }
    }
    // Only tokens with a retimed row are read again.
    for (const token of moved.valueStart) assert.ok(retimed.some((r) => r.token === token));
  }
  assert.ok(checkedLatest > 50 && checkedValueStart > 50, `cases seen: ${checkedLatest} latest, ${checkedValueStart} value starts`);
});

test('a retimed row that is neither the latest change nor in the value start\'s bucket moves nothing', () => {
  const valueSince = new Date(1_700_000_400_000);
  const prices = new Map([['0xa', { blockNumber: 900, valueSince }]]);
  const retimed = [{ token: '0xa', blockNumber: 100, observedAt: new Date(valueSince.getTime() - BUCKET_MS) }];
  assert.deepEqual(pricesRetimed(prices, retimed), { latest: new Map(), valueStart: [] });
  // A token without a current price is skipped.
  assert.deepEqual(pricesRetimed(new Map(), retimed), { latest: new Map(), valueStart: [] });
});
