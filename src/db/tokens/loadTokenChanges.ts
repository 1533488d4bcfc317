import type { Database, Queryable } from '../Database.ts';
import { readDataState, type DataCoverage, type DataVersion } from '../bumpDataVersion.ts';
import { tokenColumns, type TokenRow } from './TokenRow.ts';
import { poolColumns, type PoolRow } from '../pools/PoolRow.ts';

export type TokenChanges = DataVersion & {
  /** The coverage published with that version (Token.completeness is built from it). */
  coverage: DataCoverage;
  /** True when `rows` is every token (first load, or rows were deleted since). */
  full: boolean;
  rows: TokenRow[];
  /** The pool rows stamped above the reader's version (every one when `full`), read before the tokens. */
  pools: PoolRow[];
};

export type LoadTokenChangesOptions = {
  /** Rows per query (keyset pages by address). */
  chunkRows?: number;
  /** A reader's own reason to load every row (its answers depend on the coverage, which moved). */
  fullWhen?: (coverage: DataCoverage) => boolean;
  /**
   * Receives the rows chunk by chunk instead of `rows` (left empty), full loads and incremental
   * ones alike: a load never holds every row at once, however many tokens changed (a USD feed
   * round reprices most of a network's tokens in one block; memory, docs/performance.md).
   */
  sink?: LoadSink;
};

/** Where a load's rows go, chunk by chunk in address order. */
export type LoadSink = {
  /**
   * Called once, before any rows: the version, coverage, whether the load is full, the pools, and
   * (full loads only) how many tokens there are.
   */
  begin(changes: Omit<TokenChanges, 'rows'> & { tokens?: number }): void;
  /** Awaited before the next chunk is read. */
  rows(chunk: TokenRow[]): void | Promise<void>;
};

/**
 * Rows per query of a load. On PGlite a query's whole result is built inside the WASM memory,
 * whose pages stay resident once touched: keyset pages keep that small at no measurable cost in
 * time (docs/performance.md, memory).
 */
export const TOKEN_CHUNK_ROWS = 2000;

const TIME_FIELDS = ['priceUpdatedAt', 'marketUpdatedAt', 'createdAt', 'updatedAt'] as const;

/**
 * A row read as one JSON text, on PGlite: it decodes one field per row instead of ~30 (it copies
 * each field out of its WASM memory one at a time) and JSON.parse the rest at native speed. Not on
 * PostgreSQL: there row_to_json costs the server more than node-postgres's decoding saves.
 */
function tokenRowOf(text: string): TokenRow {
  const row = JSON.parse(text) as Record<string, unknown>;
  for (const field of TIME_FIELDS) if (row[field] !== null) row[field] = new Date(row[field] as string);
  return row as TokenRow;
}

/**
 * What changed since a reader's last load: the rows stamped above its version, or every row
 * when it has none yet or the catalogue's generation moved (token or pool rows were deleted). The version is read first,
 * so a row written while this runs is read now or next time, never missed. Rows are read in
 * keyset pages ordered by address (`chunkRows` per query), so they come back in that order.
 */
export async function loadTokenChanges(db: Queryable, since?: DataVersion, options: LoadTokenChangesOptions = {}): Promise<TokenChanges> {
  const chunkRows = Math.max(1, Math.floor(options.chunkRows ?? TOKEN_CHUNK_ROWS));
  // The catalogue's generation: history rows deleted (a filled history range) call for no full load.
  const { catalogueGeneration, ...data } = await readDataState(db);
  const state = { ...data, generation: catalogueGeneration };
  const full = since === undefined || since.generation !== state.generation || (options.fullWhen?.(state.coverage) ?? false);
  if (!full && since.version === state.version) return { ...state, full, rows: [], pools: [] };
  const pools = await db.query<PoolRow>(
    `SELECT ${poolColumns} FROM pools ${full ? '' : 'WHERE row_version > $1'} ORDER BY address`,
    full ? [] : [since.version],
  );
  const sink = options.sink;
  if (sink) {
    const [counted] = full ? await db.query<{ tokens: number }>('SELECT count(*)::int AS tokens FROM tokens') : [];
    sink.begin({ ...state, full, pools, ...(full ? { tokens: counted?.tokens ?? 0 } : {}) });
  }
  const rows: TokenRow[] = [];
  const asJson = (db as Partial<Database>).kind === 'pglite';
  let after: string | undefined;
  for (;;) {
    const where = [
      ...(full ? [] : [`row_version > $1`]),
      ...(after === undefined ? [] : [`address > $${full ? 1 : 2}`]),
    ];
    const params = [...(full ? [] : [since.version]), ...(after === undefined ? [] : [after])];
    const select = `SELECT ${tokenColumns} FROM tokens ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY address LIMIT ${chunkRows}`;
    const chunk = asJson
      ? (await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM (${select}) t`, params)).map((r) => tokenRowOf(r.row))
      : await db.query<TokenRow>(select, params);
    if (sink) await sink.rows(chunk);
    else for (const row of chunk) rows.push(row);
    if (chunk.length < chunkRows) break;
    after = chunk[chunk.length - 1]!.address;
  }
  return { ...state, full, rows, pools };
}
