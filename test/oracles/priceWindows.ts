import type { Queryable } from '../../src/db/index.ts';

/** The price-change windows (as in the API's `info.priceChange`) and their SQL intervals. */
export const windowSpans = { h1: '1 hour', h6: '6 hours', h24: '24 hours', d7: '7 days' } as const;

export type PriceWindowName = keyof typeof windowSpans;

export type PriceWindowRow = {
  address: string;
  window: PriceWindowName;
  /** What the indexer stored (the 24 h window: last24h_variation). */
  stored: string | null;
  /** Recomputed from the price history; null without a price now or at the window's start. */
  expected: string | null;
  /** stored = expected as numbers (both null counts as equal). */
  same: boolean;
};

/**
 * Every token's price-change windows recomputed from the stored price history: the percent
 * change of its current price against the last entry of `indexer_price_changes` at or before
 * the checkpoint's chain time minus the window, truncated to 18 digits (divided at 40 digits:
 * numeric division keeps only about 16 significant digits of operands with few decimals).
 */
export async function recomputePriceWindows(db: Queryable): Promise<PriceWindowRow[]> {
  const spans = Object.entries(windowSpans).map(([name, span]) => `('${name}', interval '${span}')`).join(', ');
  return db.query<PriceWindowRow>(
    `WITH head AS (SELECT block_time FROM indexer_checkpoint),
       w(name, span) AS (VALUES ${spans}),
       pair AS (
         SELECT t.address, w.name, t.current_price AS now,
           (SELECT c.price FROM indexer_price_changes c WHERE c.token = t.address AND c.observed_at <= head.block_time - w.span
            ORDER BY c.observed_at DESC, c.block_number DESC LIMIT 1) AS past,
           CASE w.name WHEN 'h1' THEN t.price_change_1h WHEN 'h6' THEN t.price_change_6h
             WHEN 'h24' THEN t.last24h_variation ELSE t.price_change_7d END AS stored
         FROM tokens t CROSS JOIN head CROSS JOIN w),
       expected AS (
         SELECT address, name, stored,
           CASE WHEN now IS NULL OR past IS NULL OR past = 0 THEN NULL ELSE trunc(round((now - past) * 100, 40) / past, 18) END AS expected
         FROM pair)
     SELECT address, name AS "window", stored::text AS stored, expected::text AS expected,
       stored IS NOT DISTINCT FROM expected AS same
     FROM expected ORDER BY address, name`,
  );
}
