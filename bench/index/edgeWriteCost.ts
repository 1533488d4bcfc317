// npx tsx bench/index/edgeWriteCost.ts --database NAME [--server URL] [--trials 30] [--rule all|scoped]
// What a forward step's exact-edge write costs on an index a bench left (e.g. bench:index on
// linea-week without blockTimestamp): for trials at heads a few seconds apart, the rows of the
// blocks just ahead of each window edge (the slice a step fixes) are given a time 1 s later
// (applyExactTimes), then the value-start times are read again, either for every token with a
// retimed price change (`all`, the rule before pricesRetimed) or for those pricesRetimed names
// (`scoped`). Carried rows (the block before each history range, its own time read) are never
// retimed and are left out. Each trial runs in a transaction that is rolled back: the index is left as it was.
// Prints milliseconds per trial for the updates and the reload, and the tokens rewritten.
import { parseArgs } from 'node:util';
import { createDatabase } from '../../src/db/index.ts';
import { applyExactTimes, loadPriceValueTimes, readCheckpoint } from '../../src/db/indexer/index.ts';
import { BUCKET_MS, pricesRetimed, WINDOW_EDGES_MS } from '../../src/indexer/exactEdgeTimes.ts';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    server: { type: 'string', default: process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432' },
    trials: { type: 'string', default: '30' },
    rule: { type: 'string', default: 'scoped' },
  },
});
if (!values.database) throw new Error('--database NAME: a database an index bench left');
const db = await createDatabase({ databaseUrl: `${values.server}/${values.database}` });
const checkpoint = (await readCheckpoint(db))!;
// The current prices as the indexer keeps them: each token's latest change and its value's start.
const latestRows = await db.query<{ token: string; n: string }>(
  `SELECT DISTINCT ON (token) token, block_number::text AS n FROM indexer_price_changes ORDER BY token, block_number DESC`,
);
const valueSince = await loadPriceValueTimes(db);
const prices = new Map(latestRows.map((r) => [r.token, { blockNumber: Number(r.n), valueSince: valueSince.get(r.token)! }] as const));

const STEP_MS = 3_000;
const rows: { update: number; reload: number; retimedTokens: number; reloaded: number; rewritten: number }[] = [];
for (let trial = 0; trial < Number(values.trials); trial++) {
  const at = checkpoint.blockTime.getTime() - (trial + 1) * 60_000;
  const blocks = new Map<number, Date>();
  for (const ms of WINDOW_EDGES_MS) {
    const through = at - ms + BUCKET_MS;
    const found = await db.query<{ n: string; t: Date }>(
      `SELECT DISTINCT block_number::text AS n, observed_at AS t FROM indexer_price_changes WHERE observed_at > $1 AND observed_at <= $2 AND NOT carried`,
      [new Date(through - STEP_MS).toISOString(), new Date(through).toISOString()],
    );
    for (const r of found) blocks.set(Number(r.n), new Date(new Date(r.t).getTime() + 1000));
  }
  const rollback = new Error('rollback');
  try {
    await db.transaction(async (tx) => {
      const t0 = performance.now();
      const retimed = await applyExactTimes(tx, blocks, [], new Date(0));
      const t1 = performance.now();
      const tokens = [...new Set(retimed.map((r) => r.token))].sort();
      const moved = pricesRetimed(prices, retimed);
      const reread = values.rule === 'all' ? tokens : moved.valueStart;
      const times = reread.length > 0 ? await loadPriceValueTimes(tx, reread) : new Map();
      const t2 = performance.now();
      const rewritten = values.rule === 'all' ? tokens.length
        : new Set([...moved.latest.keys(), ...moved.valueStart.filter((t) => times.get(t)?.getTime() !== prices.get(t)!.valueSince.getTime())]).size;
      rows.push({ update: t1 - t0, reload: t2 - t1, retimedTokens: tokens.length, reloaded: reread.length, rewritten });
      throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
}
await db.close();
const mean = (f: (r: (typeof rows)[number]) => number) => (rows.reduce((s, r) => s + f(r), 0) / rows.length).toFixed(1);
console.log(JSON.stringify({ rule: values.rule, trials: rows.length, updateMs: mean((r) => r.update), reloadMs: mean((r) => r.reload),
  retimedTokens: mean((r) => r.retimedTokens), reloaded: mean((r) => r.reloaded), rewritten: mean((r) => r.rewritten) }));
