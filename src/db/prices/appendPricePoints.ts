import type { Queryable } from '../Database.ts';
import { NEXT_ROW_VERSION, bumpDataVersion } from '../bumpDataVersion.ts';

export type PricePointWrite = {
  token: string;
  /** USD per whole token, exact decimal string. */
  price: string;
  observedAt: Date;
  blockNumber: number;
};

/**
 * Records prices into hourly buckets (UTC); within an hour the latest observation wins, in a batch
 * too. Inserted and updated rows are stamped with the version the write lands in (incremental reads).
 */
export async function appendPricePoints(db: Queryable, points: readonly PricePointWrite[]): Promise<void> {
  if (points.length === 0) return;
  await db.query(
    `INSERT INTO price_points AS p (token, hour, price, observed_at, block_number, row_version)
     SELECT DISTINCT ON (token, hour) token, hour, price, observed_at, block_number, ${NEXT_ROW_VERSION}
     FROM (
       SELECT token, date_trunc('hour', observed_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour, price, observed_at, block_number
       FROM unnest($1::text[], $2::numeric[], $3::timestamptz[], $4::bigint[]) AS x(token, price, observed_at, block_number)
     ) batch
     ORDER BY token, hour, observed_at DESC, block_number DESC
     ON CONFLICT (token, hour) DO UPDATE SET
       price = EXCLUDED.price, observed_at = EXCLUDED.observed_at, block_number = EXCLUDED.block_number,
       row_version = EXCLUDED.row_version
     WHERE (EXCLUDED.observed_at, EXCLUDED.block_number) >= (p.observed_at, p.block_number)`,
    [
      points.map((p) => p.token.toLowerCase()),
      points.map((p) => p.price),
      points.map((p) => p.observedAt.toISOString()),
      points.map((p) => p.blockNumber),
    ],
  );
  await bumpDataVersion(db);
}
