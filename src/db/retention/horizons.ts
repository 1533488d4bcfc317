import type { Queryable } from '../Database.ts';

export type Horizon = { keptFrom: Date; keptFromBlock: number | null };

export type PruneOptions = {
  /** Rows one statement deletes at most. */
  batchRows: number;
  /** Statements at most; what is left is pruned next time. */
  maxPasses: number;
};

/** The horizon of one pruned table, or undefined when nothing of it was ever pruned. */
export async function readHorizon(db: Queryable, name: string): Promise<Horizon | undefined> {
  const rows = await db.query<{ keptFrom: Date; keptFromBlock: string | null }>(
    `SELECT kept_from AS "keptFrom", kept_from_block::text AS "keptFromBlock" FROM retention_horizons WHERE name = $1`,
    [name],
  );
  const row = rows[0];
  return row && { keptFrom: new Date(row.keptFrom), keptFromBlock: row.keptFromBlock === null ? null : Number(row.keptFromBlock) };
}

/** Every horizon, by table name. */
export async function readHorizons(db: Queryable): Promise<Map<string, Horizon>> {
  const rows = await db.query<{ name: string; keptFrom: Date; keptFromBlock: string | null }>(
    `SELECT name, kept_from AS "keptFrom", kept_from_block::text AS "keptFromBlock" FROM retention_horizons ORDER BY name`,
  );
  return new Map(rows.map((r) => [r.name, { keptFrom: new Date(r.keptFrom), keptFromBlock: r.keptFromBlock === null ? null : Number(r.keptFromBlock) }]));
}

/** Moves a horizon forward (never back). */
export async function advanceHorizon(db: Queryable, name: string, keptFrom: Date, keptFromBlock: number | null = null): Promise<void> {
  await db.query(
    `INSERT INTO retention_horizons AS h (name, kept_from, kept_from_block) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET kept_from = GREATEST(h.kept_from, EXCLUDED.kept_from),
       kept_from_block = GREATEST(h.kept_from_block, EXCLUDED.kept_from_block)`,
    [name, keptFrom.toISOString(), keptFromBlock],
  );
}
