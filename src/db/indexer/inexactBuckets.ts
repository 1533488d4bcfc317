// The 5-minute buckets whose rows hold interpolated block times (migration 019), and the rows that
// get their blocks' own times when a window edge reaches such a bucket (indexer/exactEdgeTimes.ts).
import type { Queryable } from '../Database.ts';

const BUCKET_MS = 300_000;

/** Lists buckets (each a UTC multiple of 300 s) as holding interpolated times. */
export async function markInexactBuckets(db: Queryable, buckets: readonly Date[]): Promise<void> {
  if (buckets.length === 0) return;
  await db.query(
    `INSERT INTO indexer_inexact_buckets (bucket) SELECT unnest($1::timestamptz[]) ON CONFLICT DO NOTHING`,
    [buckets.map((b) => b.toISOString())],
  );
}

/**
 * The blocks of the rows (swaps and price changes: an hourly point's block always has a price
 * change) in listed buckets whose times lie in any of the slices (after, through], and the listed
 * buckets starting inside any of the spans [from, to]. `through`: the highest block whose time can be
 * interpolated (the bootstrap block; null: any).
 */
export async function loadInexactBuckets(
  db: Queryable, slices: readonly { after: Date; through: Date }[], spans: readonly { from: Date; to: Date }[], through: number | null,
): Promise<{ blocks: number[]; covered: Date[] }> {
  const covered = spans.length === 0 ? [] : await db.query<{ bucket: Date }>(
    `SELECT DISTINCT b.bucket FROM indexer_inexact_buckets b
     JOIN unnest($1::timestamptz[], $2::timestamptz[]) AS s(f, t) ON b.bucket >= s.f AND b.bucket <= s.t
     ORDER BY b.bucket`,
    [spans.map((s) => s.from.toISOString()), spans.map((s) => s.to.toISOString())],
  );
  // One statement per slice, its bounds as plain parameters: the planner then estimates each time
  // range from the column's histogram and reads it through the time index. Joined with a list of
  // slices (unnest), its row estimates were rough, and on a followed network it planned a scan of
  // all the swaps and of the price changes' block index: ~280 ms a step for a handful of rows.
  // The bootstrap-block bound is applied here for the same reason (an index on it reads them all).
  const blocks = new Set<number>();
  for (const slice of slices) {
    const rows = await db.query<{ n: string }>(
      `SELECT DISTINCT r.block_number::text AS n FROM (
         SELECT block_number, occurred_at AS at FROM swaps WHERE occurred_at > $1 AND occurred_at <= $2
         UNION SELECT block_number, observed_at FROM indexer_price_changes WHERE observed_at > $1 AND observed_at <= $2
       ) r
       JOIN indexer_inexact_buckets b ON b.bucket = to_timestamp(floor(extract(epoch FROM r.at) / $3) * $3)`,
      [slice.after.toISOString(), slice.through.toISOString(), BUCKET_MS / 1000],
    );
    for (const r of rows) if (through === null || Number(r.n) <= through) blocks.add(Number(r.n));
  }
  return { blocks: [...blocks].sort((a, b) => a - b), covered: covered.map((r) => new Date(r.bucket)) };
}

/** A price change whose stored time applyExactTimes moved: its token, block and block's own time. */
export type RetimedPriceChange = { token: string; blockNumber: number; observedAt: Date };

/**
 * Gives every swap, price change and hourly point of the blocks their block's own time, and
 * unlists `buckets` and every bucket older than `behind` (no edge reaches it any more). Returns the
 * price changes whose time moved (their token's price times may have).
 * One statement per block and table, each through the table's block_number index: a join with the
 * list of blocks can be planned as a scan of the whole table when the statistics make a block look
 * large (docs/indexer.md, "Exact at the moving edges").
 */
export async function applyExactTimes(db: Queryable, times: ReadonlyMap<number, Date>, buckets: readonly Date[], behind: Date): Promise<RetimedPriceChange[]> {
  const moved: RetimedPriceChange[] = [];
  for (const [table, column] of [['swaps', 'occurred_at'], ['indexer_price_changes', 'observed_at'], ['price_points', 'observed_at']] as const) {
    const returning = table === 'indexer_price_changes' ? ' RETURNING token' : '';
    for (const [blockNumber, time] of times) {
      const rows = await db.query<{ token: string }>(
        `UPDATE ${table} SET ${column} = $2 WHERE block_number = $1 AND ${column} <> $2${returning}`, [blockNumber, time.toISOString()],
      );
      if (returning) for (const r of rows) moved.push({ token: r.token, blockNumber, observedAt: time });
    }
  }
  await db.query(`DELETE FROM indexer_inexact_buckets WHERE bucket = ANY($1::timestamptz[]) OR bucket < $2`, [
    buckets.map((b) => b.toISOString()), behind.toISOString(),
  ]);
  return moved;
}
