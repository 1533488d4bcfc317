import type { Queryable } from '../Database.ts';

export type PricePointRow = { price: string; hour: Date };

/**
 * Hourly prices since `since` for each of `addresses` (lower-case) that is an indexed token,
 * oldest first, keyed by checksummed address. One query whatever the number of addresses.
 */
export async function getPriceHistories(
  db: Queryable,
  addresses: readonly string[],
  since: Date,
): Promise<Map<string, PricePointRow[]>> {
  const rows = await db.query<{ checksumAddress: string; price: string | null; hour: Date | null }>(
    `SELECT t.checksum_address AS "checksumAddress", p.price::text AS price, p.hour
     FROM tokens t
     LEFT JOIN price_points p ON p.token = t.address AND p.hour >= $2
     WHERE t.address = ANY($1::text[])
     ORDER BY t.address, p.hour`,
    [addresses, since.toISOString()],
  );
  const histories = new Map<string, PricePointRow[]>();
  for (const row of rows) {
    const list = histories.get(row.checksumAddress) ?? [];
    if (row.price !== null && row.hour !== null) list.push({ price: row.price, hour: row.hour });
    histories.set(row.checksumAddress, list);
  }
  return histories;
}
