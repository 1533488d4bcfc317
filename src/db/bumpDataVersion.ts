import type { Queryable } from './Database.ts';

/** Marks that stored data changed, so API processes drop cached pages and ETags move on. */
export async function bumpDataVersion(db: Queryable): Promise<void> {
  await db.query(`UPDATE data_version SET version = version + 1 WHERE id = 1`);
}

/** Marks that rows were deleted: readers cannot follow by version alone and reload in full. */
export async function bumpDataGeneration(db: Queryable): Promise<void> {
  await db.query(`UPDATE data_version SET version = version + 1, generation = generation + 1 WHERE id = 1`);
}

export type DataVersion = { version: number; generation: number };

export async function readDataVersion(db: Queryable): Promise<number> {
  return (await readDataState(db)).version;
}

export async function readDataState(db: Queryable): Promise<DataVersion> {
  const rows = await db.query<{ version: number | string; generation: number | string }>(
    `SELECT version, generation FROM data_version WHERE id = 1`,
  );
  return { version: Number(rows[0]?.version ?? 0), generation: Number(rows[0]?.generation ?? 0) };
}

/**
 * SQL for the version a token write lands in. Writers stamp rows with it, then bump the
 * version: a reader that saw version V and loads rows stamped above V never misses a row.
 */
export const NEXT_ROW_VERSION = `(SELECT version + 1 FROM data_version WHERE id = 1)`;
