import type { Queryable } from '../Database.ts';
import { readDataState, type DataVersion } from '../bumpDataVersion.ts';

const HOUR_MS = 3_600_000;

/** What a price history needs from a token besides its points. */
export type PriceTokenRow = {
  address: string;
  checksumAddress: string;
  /** Exact decimal string, as getPriceHistories reads it. */
  currentPrice: string | null;
  priceUpdatedAt: Date | null;
};

/** One hourly bucket: `hour` counts hours since the Unix epoch (UTC). */
export type PricePointChange = { token: string; hour: number; price: string };

export type PriceChanges = DataVersion & {
  /** True when the sink received every token and every needed point (first load, or rows were deleted since). */
  full: boolean;
};

/** Receives the rows of a load chunk by chunk, tokens first, so no load holds them all at once. */
export type PriceChangeSink = {
  /** Called once the load knows whether it is full, before any rows. */
  begin?(changes: PriceChanges): void;
  tokens(rows: PriceTokenRow[]): void;
  points(rows: PricePointChange[]): void;
};

export type LoadPriceChangesOptions = {
  /** Points from this hour on are loaded in full; before it only each token's latest (the carried price). */
  cutoff: Date;
  /** Rows per query (keyset pagination), so PGlite's WASM memory stays small on large tables. */
  chunkRows?: number;
};

const tokenColumns = `address, checksum_address AS "checksumAddress", current_price::text AS "currentPrice",
  price_updated_at AS "priceUpdatedAt"`;
const hourIndex = (column: string) => `(extract(epoch FROM ${column}) / 3600)::int`;

/**
 * What changed in tokens and hourly prices since a reader's last load (see loadTokenChanges): the
 * rows stamped above its version, or on a full load every token and only the points that can
 * still show: those from `cutoff` on plus, per token, the latest one before it. The version is
 * read first, so a row written while this runs is read now or next time, never missed.
 * Incremental loads hand over every stamped point whatever its hour: the reader keeps what matters.
 */
export async function loadPriceChanges(
  db: Queryable,
  since: DataVersion | undefined,
  options: LoadPriceChangesOptions,
  sink: PriceChangeSink,
): Promise<PriceChanges> {
  const state = await readDataState(db);
  const full = since === undefined || since.generation !== state.generation;
  if (!full && since.version === state.version) return { ...state, full };
  sink.begin?.({ ...state, full });
  const chunk = options.chunkRows ?? 20_000;
  const cutoff = new Date(Math.floor(options.cutoff.getTime() / HOUR_MS) * HOUR_MS).toISOString();

  if (full) {
    for (let after = ''; ; ) {
      const rows = await db.query<PriceTokenRow>(
        `SELECT ${tokenColumns} FROM tokens WHERE address > $1 ORDER BY address LIMIT $2`,
        [after, chunk],
      );
      if (rows.length > 0) sink.tokens(rows);
      if (rows.length < chunk) break;
      after = rows.at(-1)!.address;
    }
    // The carried prices first (they precede every point of their token), one index seek per token.
    for (let after = ''; ; ) {
      const rows = await db.query<PricePointChange>(
        `SELECT t.address AS token, ${hourIndex('p.hour')} AS hour, p.price::text AS price
         FROM tokens t CROSS JOIN LATERAL (
           SELECT hour, price FROM price_points WHERE token = t.address AND hour < $1 ORDER BY hour DESC LIMIT 1
         ) p
         WHERE t.address > $2 ORDER BY t.address LIMIT $3`,
        [cutoff, after, chunk],
      );
      if (rows.length > 0) sink.points(rows);
      if (rows.length < chunk) break;
      after = rows.at(-1)!.token;
    }
    await pointsInKeyOrder(db, `hour >= $1`, [cutoff], chunk, sink);
  } else {
    const rows = await db.query<PriceTokenRow>(`SELECT ${tokenColumns} FROM tokens WHERE row_version > $1`, [since.version]);
    if (rows.length > 0) sink.tokens(rows);
    await pointsInKeyOrder(db, `row_version > $1`, [since.version], chunk, sink);
  }
  return { ...state, full };
}

/** The points matching `where` (parameter $1), by (token, hour), `chunk` rows per query. */
async function pointsInKeyOrder(
  db: Queryable,
  where: string,
  params: [string | number],
  chunk: number,
  sink: PriceChangeSink,
): Promise<void> {
  for (let token = '', hour = new Date(0).toISOString(); ; ) {
    const rows = await db.query<PricePointChange>(
      `SELECT token, ${hourIndex('hour')} AS hour, price::text AS price FROM price_points
       WHERE ${where} AND (token, hour) > ($2, $3::timestamptz) ORDER BY token, hour LIMIT $4`,
      [...params, token, hour, chunk],
    );
    if (rows.length > 0) sink.points(rows);
    if (rows.length < chunk) return;
    const last = rows.at(-1)!;
    token = last.token;
    hour = new Date(last.hour * HOUR_MS).toISOString();
  }
}
