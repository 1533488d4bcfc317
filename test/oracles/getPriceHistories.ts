import type { Queryable } from '../../src/db/index.ts';

export type PricePointRow = { price: string; hour: Date };

const HOUR_MS = 3_600_000;

/**
 * The price in force at the end of each hourly bucket from `from` to `to` (bucket starts), for
 * each of `addresses` (lower-case) that is an indexed token, oldest first, keyed by checksummed
 * address. A bucket without a trade carries the last price forward; one before the token's first
 * price is left out. A token priced without any recorded change (a stablecoin, worth 1 from the
 * start) is carried from its current price and the time it was set. Three index range reads
 * whatever the number of tokens; the filling-in happens here.
 */
export async function getPriceHistories(
  db: Queryable,
  addresses: readonly string[],
  range: { from: Date; to: Date },
): Promise<Map<string, PricePointRow[]>> {
  const [tokens, before, inside] = await Promise.all([
    db.query<{ address: string; checksumAddress: string; currentPrice: string | null; priceUpdatedAt: Date | null }>(
      `SELECT address, checksum_address AS "checksumAddress", current_price::text AS "currentPrice",
              price_updated_at AS "priceUpdatedAt"
       FROM tokens WHERE address = ANY($1::text[]) ORDER BY address`,
      [addresses],
    ),
    // the price carried into the window: each token's last bucket before it (one index seek each)
    db.query<{ token: string; price: string }>(
      `SELECT a.token, p.price::text AS price
       FROM unnest($1::text[]) AS a(token)
       CROSS JOIN LATERAL (
         SELECT price FROM price_points WHERE token = a.token AND hour < $2 ORDER BY hour DESC LIMIT 1
       ) p`,
      [addresses, range.from.toISOString()],
    ),
    db.query<{ token: string; hour: Date; price: string }>(
      `SELECT token, hour, price::text AS price FROM price_points
       WHERE token = ANY($1::text[]) AND hour >= $2 AND hour <= $3 ORDER BY token, hour`,
      [addresses, range.from.toISOString(), range.to.toISOString()],
    ),
  ]);
  const carried = new Map(before.map((r) => [r.token, r.price]));
  const points = new Map<string, Map<number, string>>();
  for (const p of inside) {
    const byHour = points.get(p.token) ?? new Map<number, string>();
    byHour.set(new Date(p.hour).getTime(), p.price);
    points.set(p.token, byHour);
  }
  const histories = new Map<string, PricePointRow[]>();
  for (const token of tokens) {
    const byHour = points.get(token.address);
    let price = carried.get(token.address) ?? null;
    const list: PricePointRow[] = [];
    for (let hour = range.from.getTime(); hour <= range.to.getTime(); hour += HOUR_MS) {
      price = byHour?.get(hour) ?? price;
      const fromCurrent = token.priceUpdatedAt !== null && new Date(token.priceUpdatedAt).getTime() < hour + HOUR_MS ? token.currentPrice : null;
      const value = price ?? fromCurrent;
      if (value !== null) list.push({ price: value, hour: new Date(hour) });
    }
    histories.set(token.checksumAddress, list);
  }
  return histories;
}
