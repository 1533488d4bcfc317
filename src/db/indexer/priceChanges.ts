// Every USD price change per token: the current price, its time, and the price 24 h earlier.
import type { Queryable } from '../Database.ts';

export type PriceChange = {
  token: string;
  blockNumber: number;
  price: string | null;
  observedAt: Date;
  /** The pool the price came from (lower case); null for stablecoins and no price. */
  source?: string | null;
  /** A head-first bootstrap's price in force at the block before stored history, not a change seen there. */
  carried?: boolean;
};

export async function savePriceChanges(db: Queryable, changes: readonly PriceChange[]): Promise<void> {
  if (changes.length === 0) return;
  await db.query(
    `INSERT INTO indexer_price_changes (token, block_number, price, observed_at, source, carried)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::numeric[], $4::timestamptz[], $5::text[], $6::boolean[])
     ON CONFLICT (token, block_number) DO UPDATE SET price = EXCLUDED.price, observed_at = EXCLUDED.observed_at, source = EXCLUDED.source,
       carried = EXCLUDED.carried`,
    [
      changes.map((c) => c.token), changes.map((c) => c.blockNumber), changes.map((c) => c.price),
      changes.map((c) => c.observedAt.toISOString()), changes.map((c) => c.source ?? null), changes.map((c) => c.carried ?? false),
    ],
  );
}

/**
 * Each token's last price change at or before `at` (chain time; null = latest overall); tokens
 * without one are absent. With `tokens`, only those are looked up (one index probe each). The
 * latest is the newest block's: while the moving window edges fix a bucket's history times row by
 * row (indexer/exactEdgeTimes.ts), an older block can hold a later time than a newer one still
 * interpolated, but never at or before an edge, where `at` is used.
 */
export async function loadPricesAt(db: Queryable, at: Date | null, tokens?: readonly string[]): Promise<Map<string, PriceChange>> {
  type Row = { token: string; blockNumber: string; price: string | null; observedAt: Date; source: string | null };
  const order = at === null ? 'c.block_number DESC' : 'c.observed_at DESC, c.block_number DESC';
  const rows = tokens
    ? await db.query<Row>(
        `SELECT c.token, c.block_number::text AS "blockNumber", c.price::text AS price, c.observed_at AS "observedAt", c.source
         FROM unnest($2::text[]) AS t(token)
         CROSS JOIN LATERAL (SELECT * FROM indexer_price_changes c WHERE c.token = t.token
           AND ($1::timestamptz IS NULL OR c.observed_at <= $1) ORDER BY ${order} LIMIT 1) c`,
        [at?.toISOString() ?? null, tokens],
      )
    : await db.query<Row>(
        // Every token's own newest row by its index (price changes are only stored for known tokens),
        // not a sort of the whole table: a head-first fill reloads these after every history range.
        `SELECT c.token, c.block_number::text AS "blockNumber", c.price::text AS price, c.observed_at AS "observedAt", c.source
         FROM indexer_tokens t
         CROSS JOIN LATERAL (SELECT * FROM indexer_price_changes c WHERE c.token = t.address
           AND ($1::timestamptz IS NULL OR c.observed_at <= $1) ORDER BY ${order} LIMIT 1) c`,
        [at?.toISOString() ?? null],
      );
  return new Map(rows.map((r) => [r.token, { token: r.token, blockNumber: Number(r.blockNumber), price: r.price, observedAt: new Date(r.observedAt), source: r.source }]));
}

/**
 * The tokens with a price change (carried ones included) observed inside any of `spans`, each
 * (after, upTo]: the rows whose "last change at or before" a window start moving over the span
 * finds anew. Through the index on observed_at, a range scan each.
 */
export async function loadTokensChangedIn(db: Queryable, spans: readonly { after: Date; upTo: Date }[]): Promise<string[]> {
  const live = spans.filter((s) => s.upTo > s.after);
  if (live.length === 0) return [];
  // One select per span with its own bounds, so that each is planned with its values: a join with
  // the unnested spans was planned as a scan of every price change once VACUUM had given the table
  // true row counts (255 ms against 5 ms by the time index, measured on a followed database).
  const rows = await db.query<{ token: string }>(
    live.map((_, i) => `SELECT token FROM indexer_price_changes WHERE observed_at > $${2 * i + 1}::timestamptz AND observed_at <= $${2 * i + 2}::timestamptz`)
      .join(' UNION '),
    live.flatMap((s) => [s.after.toISOString(), s.upTo.toISOString()]),
  );
  return rows.map((r) => r.token);
}

/**
 * When each token's current price value began: the time of the first change after the last one to
 * another value (a change of price source alone keeps the value, and so this time), in block order
 * (see loadPricesAt: times can be out of order inside a bucket being fixed). By the primary key
 * (token, block_number) each.
 */
export async function loadPriceValueTimes(db: Queryable, tokens?: readonly string[]): Promise<Map<string, Date>> {
  type Row = { token: string; since: Date };
  const rows = await db.query<Row>(
    `SELECT l.token, f.observed_at AS since
     FROM indexer_tokens t
     ${tokens ? 'JOIN unnest($1::text[]) AS w(token) ON w.token = t.address' : ''}
     CROSS JOIN LATERAL (SELECT c.token, c.price FROM indexer_price_changes c WHERE c.token = t.address
       ORDER BY c.block_number DESC LIMIT 1) l
     LEFT JOIN LATERAL (SELECT d.block_number FROM indexer_price_changes d
       WHERE d.token = l.token AND d.price IS DISTINCT FROM l.price ORDER BY d.block_number DESC LIMIT 1) p ON true
     CROSS JOIN LATERAL (SELECT c.observed_at FROM indexer_price_changes c
       WHERE c.token = l.token AND c.block_number > coalesce(p.block_number, -1)
       ORDER BY c.block_number LIMIT 1) f`,
    tokens ? [tokens] : [],
  );
  return new Map(rows.map((r) => [r.token, new Date(r.since)]));
}

/** Drops the carried prices of blocks from..to (a history range that is being filled with the real changes). */
export async function deleteCarriedPriceChanges(db: Queryable, from: number, to: number): Promise<void> {
  await db.query(`DELETE FROM indexer_price_changes WHERE carried AND block_number BETWEEN $1 AND $2`, [from, to]);
}
