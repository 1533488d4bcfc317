import type { Queryable } from './Database.ts';

/** Marks that stored data changed, so API processes drop cached pages and ETags move on. */
export async function bumpDataVersion(db: Queryable): Promise<void> {
  await db.query(`UPDATE data_version SET version = version + 1 WHERE id = 1`);
}

export async function readDataVersion(db: Queryable): Promise<number> {
  const rows = await db.query<{ version: number | string }>(`SELECT version FROM data_version WHERE id = 1`);
  return Number(rows[0]?.version ?? 0);
}
