import type { Queryable } from '../Database.ts';

export type PricePointRow = { price: string; hour: Date };

/**
 * The price in force at the end of each hourly bucket from `from` to `to` (bucket starts), for
 * each of `addresses` (lower-case) that is an indexed token, oldest first, keyed by checksummed
 * address. A bucket without a trade carries the last price forward; one before the token's first
 * price is left out. A token priced without any recorded change (a stablecoin, worth 1 from the
 * start) is carried from its current price and the time it was set. One query for all tokens.
 */
export async function getPriceHistories(
  db: Queryable,
  addresses: readonly string[],
  range: { from: Date; to: Date },
): Promise<Map<string, PricePointRow[]>> {
  const rows = await db.query<{ checksumAddress: string; price: string | null; hour: Date }>(
    `SELECT t.checksum_address AS "checksumAddress", h.hour,
            coalesce(p.price, CASE WHEN t.price_updated_at < h.hour + interval '1 hour' THEN t.current_price END)::text AS price
     FROM tokens t
     CROSS JOIN generate_series($2::timestamptz, $3::timestamptz, interval '1 hour') AS h(hour)
     LEFT JOIN LATERAL (
       SELECT pp.price FROM price_points pp
       WHERE pp.token = t.address AND pp.hour <= h.hour
       ORDER BY pp.hour DESC LIMIT 1
     ) p ON true
     WHERE t.address = ANY($1::text[])
     ORDER BY t.address, h.hour`,
    [addresses, range.from.toISOString(), range.to.toISOString()],
  );
  const histories = new Map<string, PricePointRow[]>();
  for (const row of rows) {
    const list = histories.get(row.checksumAddress) ?? [];
    if (row.price !== null) list.push({ price: row.price, hour: row.hour });
    histories.set(row.checksumAddress, list);
  }
  return histories;
}
