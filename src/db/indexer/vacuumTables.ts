// The tables a following indexer rewrites at every block (each USD feed round rewrites every quoted
// token's row, its pools and its candles) leave a dead row version per update behind. PostgreSQL's
// autovacuum reclaims them; where a server runs without it, nothing does, and every write and read
// of those tables goes on through the dead versions (30 dead token rows per live one after an hour
// of following a Linea-sized network). The indexer then vacuums them itself.
import type { Database } from '../Database.ts';

/** The indexer's tables with updates or deletes at every block or retention run, most rewritten first. */
export const CHURNED_TABLES = [
  'data_version', 'indexer_checkpoint', 'tokens', 'pools', 'candles', 'price_points', 'indexer_pool_states', 'indexer_price_changes', 'swaps',
] as const;

/** Whether the server's autovacuum is on (PostgreSQL's default). PGlite has no autovacuum process: false. */
export async function autovacuumRuns(db: Database): Promise<boolean> {
  if (db.kind !== 'postgres') return false;
  const [row] = await db.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
  return row?.on === true;
}

/** The longest one table's VACUUM may take (a first one after days of dead rows reads gigabytes). */
const VACUUM_TIMEOUT_MS = 3_600_000;

/**
 * VACUUMs the tables one statement each (outside any transaction: VACUUM cannot run in one), on a
 * connection of its own without the pool's statement timeout (PostgreSQL; elsewhere through the
 * database itself). It takes no lock that writes wait for. Returns each table's time in ms.
 */
export async function vacuumTables(db: Database, tables: readonly string[] = CHURNED_TABLES): Promise<Record<string, number>> {
  const session = db.openSession
    ? await db.openSession({ statement_timeout: String(VACUUM_TIMEOUT_MS) }, { queryTimeoutMs: VACUUM_TIMEOUT_MS + 60_000 })
    : null;
  const ms: Record<string, number> = {};
  try {
    for (const table of tables) {
      const started = performance.now();
      await (session ?? db).query(`VACUUM ${table}`);
      ms[table] = Math.round(performance.now() - started);
    }
  } finally {
    await session?.close();
  }
  return ms;
}
