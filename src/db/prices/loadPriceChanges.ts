import type { Queryable } from '../Database.ts';
import { readDataState, type DataVersion } from '../bumpDataVersion.ts';

const HOUR_MS = 3_600_000;

/** What a price history needs from a token besides its points. */
export type PriceTokenRow = {
  address: string;
  checksumAddress: string;
  /** Exact decimal string. */
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
  /**
   * Tokens (with their points) per query of a full load, keyset pages by address, so PGlite's
   * WASM memory stays small on large tables. Default 2,000.
   */
  chunkRows?: number;
  /**
   * False: a full load hands over no rows, only its version (begin): the reader loads the tokens
   * it is asked for itself (loadPriceHistoriesOf). Default true.
   */
  fullRows?: boolean;
};

const tokenColumns = `t.address, t.checksum_address AS "checksumAddress", t.current_price::text AS "currentPrice",
  t.price_updated_at AS "priceUpdatedAt"`;
const hourIndex = (column: string) => `(extract(epoch FROM ${column}) / 3600)::int`;

type HistoryRow = PriceTokenRow & { points: string | null };
/** Tokens with the points that can still show (from the cutoff $1 on, and the latest one before it) as one string each. */
const historySelect = `SELECT ${tokenColumns},
  (SELECT string_agg(${hourIndex('p.hour')}::text || ' ' || p.price::text, ' ' ORDER BY p.hour)
   FROM (
     (SELECT hour, price FROM price_points WHERE token = t.address AND hour < $1 ORDER BY hour DESC LIMIT 1)
     UNION ALL
     (SELECT hour, price FROM price_points WHERE token = t.address AND hour >= $1)
   ) p) AS points
  FROM tokens t`;

const cutoffText = (cutoff: Date) => new Date(Math.floor(cutoff.getTime() / HOUR_MS) * HOUR_MS).toISOString();

function splitHistoryRows(rows: readonly HistoryRow[]): { tokens: PriceTokenRow[]; points: PricePointChange[] } {
  const points: PricePointChange[] = [];
  for (const row of rows) {
    const parts = row.points?.split(' ') ?? [];
    for (let i = 0; i + 1 < parts.length; i += 2) points.push({ token: row.address, hour: Number(parts[i]), price: parts[i + 1]! });
  }
  return { tokens: rows.map(({ points: _, ...token }) => token), points };
}

/**
 * The indexed tokens among `addresses` (lower-case) with the points a full load would hand over
 * for them (from `cutoff` on, plus each one's latest before it), in one query: what a reader
 * that holds histories on demand loads on a miss. Unknown addresses are left out.
 */
export async function loadPriceHistoriesOf(db: Queryable, addresses: readonly string[], cutoff: Date): Promise<{ tokens: PriceTokenRow[]; points: PricePointChange[] }> {
  if (addresses.length === 0) return { tokens: [], points: [] };
  return splitHistoryRows(await db.query<HistoryRow>(`${historySelect} WHERE t.address = ANY($2::text[])`, [cutoffText(cutoff), addresses]));
}

/**
 * Up to `limit` tokens after `after` in address order, with the points a full load would hand
 * over for them: a reader filling itself in the background, a chunk at a time.
 */
export async function loadPriceHistoriesAfter(db: Queryable, after: string, limit: number, cutoff: Date): Promise<{ tokens: PriceTokenRow[]; points: PricePointChange[] }> {
  return splitHistoryRows(await db.query<HistoryRow>(`${historySelect} WHERE t.address > $2 ORDER BY t.address LIMIT $3`, [cutoffText(cutoff), after, limit]));
}

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
  const chunk = options.chunkRows ?? 2000;
  const cutoff = cutoffText(options.cutoff);

  if (full && options.fullRows === false) return { ...state, full };
  if (full) {
    // One row per token, its points aggregated into one string: PGlite's cost is per row, and a
    // chunk of tokens bounds the result (each holds the window's ~26 hours), keyset by address.
    for (let after = ''; ; ) {
      const rows = await db.query<HistoryRow>(`${historySelect} WHERE t.address > $2 ORDER BY t.address LIMIT $3`, [cutoff, after, chunk]);
      if (rows.length === 0) break;
      const { tokens, points } = splitHistoryRows(rows);
      sink.tokens(tokens);
      if (points.length > 0) sink.points(points);
      if (rows.length < chunk) break;
      after = rows.at(-1)!.address;
    }
  } else {
    const rows = await db.query<PriceTokenRow>(`SELECT ${tokenColumns} FROM tokens t WHERE t.row_version > $1`, [since.version]);
    if (rows.length > 0) sink.tokens(rows);
    // Through the row_version index: what the indexer wrote since the reader's last check (a
    // keyset by (token, hour) here would walk the primary key over the whole table).
    const points = await db.query<PricePointChange>(
      `SELECT token, ${hourIndex('hour')} AS hour, price::text AS price FROM price_points WHERE row_version > $1`,
      [since.version],
    );
    if (points.length > 0) sink.points(points);
  }
  return { ...state, full };
}
