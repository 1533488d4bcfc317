import type { Queryable } from '../Database.ts';

const HOUR_MS = 3_600_000;
/** Hourly points this far behind the newest hour can never show in a 24-hour window again. */
export const PRICE_POINTS_KEEP_MS = 48 * HOUR_MS;

export type PrunePricePointsOptions = {
  /** The newest hour (e.g. the indexed chain time); by default the newest point stored. */
  newest?: Date;
  keepMs?: number;
};

/**
 * Deletes hourly price points older than `keepMs` behind the newest hour, except each token's
 * latest point before that cutoff: the price a history carries forward into its window. Returns
 * how many rows were deleted.
 *
 * The data version is not bumped, on purpose: every pruned row is older than any window and than
 * the in-memory stores' own cutoff (window start minus an hour), which keep only each token's
 * latest point before it, so what they answer cannot change and no API process needs to reload.
 */
export async function prunePricePoints(db: Queryable, options: PrunePricePointsOptions = {}): Promise<number> {
  let newest = options.newest?.getTime();
  if (newest === undefined) {
    const rows = await db.query<{ newest: Date | null }>(`SELECT max(hour) AS newest FROM price_points`);
    if (!rows[0]?.newest) return 0;
    newest = new Date(rows[0].newest).getTime();
  }
  const cutoff = new Date(Math.floor(newest / HOUR_MS) * HOUR_MS - (options.keepMs ?? PRICE_POINTS_KEEP_MS));
  const deleted = await db.query<{ n: number }>(
    `WITH kept AS (
       SELECT token, max(hour) AS hour FROM price_points WHERE hour < $1 GROUP BY token
     ), gone AS (
       DELETE FROM price_points p USING kept WHERE p.token = kept.token AND p.hour < kept.hour RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [cutoff.toISOString()],
  );
  return Number(deleted[0]?.n ?? 0);
}
