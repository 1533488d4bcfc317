import type { Queryable } from './Database.ts';

/** Marks that stored data changed, so API processes drop cached pages and ETags move on. */
export async function bumpDataVersion(db: Queryable): Promise<void> {
  await db.query(`UPDATE data_version SET version = version + 1 WHERE id = 1`);
}

/**
 * Marks that rows were deleted, tokens or pools among them (a reorg): readers cannot follow by
 * version alone and reload in full, the token catalogue included.
 */
export async function bumpDataGeneration(db: Queryable): Promise<void> {
  await db.query(`UPDATE data_version SET version = version + 1, generation = generation + 1, catalogue_generation = catalogue_generation + 1 WHERE id = 1`);
}

/**
 * Marks that history rows were deleted (price changes, candles) but no token or pool: the price
 * histories reload in full, the token catalogue follows by version.
 */
export async function bumpHistoryGeneration(db: Queryable): Promise<void> {
  await db.query(`UPDATE data_version SET version = version + 1, generation = generation + 1 WHERE id = 1`);
}

export type DataVersion = { version: number; generation: number };

/**
 * The indexer's coverage as it publishes it with the version: the chain time its history is
 * stored from (null: complete) and the chain time of the last indexed block (null: nothing yet).
 */
export type DataCoverage = { historyFrom: Date | null; indexedTime: Date | null };

export async function readDataVersion(db: Queryable): Promise<number> {
  return (await readDataState(db)).version;
}

/** The data version, the generations (see bumpDataGeneration, bumpHistoryGeneration) and the coverage. */
export async function readDataState(db: Queryable): Promise<DataVersion & { catalogueGeneration: number; coverage: DataCoverage }> {
  const rows = await db.query<{ version: number | string; generation: number | string; catalogueGeneration: number | string; historyFrom: Date | string | null; indexedTime: Date | string | null }>(
    `SELECT version, generation, catalogue_generation AS "catalogueGeneration", history_from AS "historyFrom", indexed_time AS "indexedTime" FROM data_version WHERE id = 1`,
  );
  const row = rows[0];
  const date = (v: Date | string | null | undefined) => (v === null || v === undefined ? null : new Date(v));
  return {
    version: Number(row?.version ?? 0), generation: Number(row?.generation ?? 0), catalogueGeneration: Number(row?.catalogueGeneration ?? 0),
    coverage: { historyFrom: date(row?.historyFrom), indexedTime: date(row?.indexedTime) },
  };
}

/**
 * SQL for the version a token write lands in. Writers stamp rows with it, then bump the
 * version: a reader that saw version V and loads rows stamped above V never misses a row.
 */
export const NEXT_ROW_VERSION = `(SELECT version + 1 FROM data_version WHERE id = 1)`;
