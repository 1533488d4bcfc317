import type { DatabaseTimeouts } from '../config/databaseTimeouts.ts';
import type { PgliteStart } from './createPgliteDatabase.ts';
import type { Database } from './Database.ts';
import { migrate } from './migrate.ts';

export type DatabaseOptions = {
  databaseUrl?: string;
  pgliteDir?: string;
  /** How a new PGlite starts (a dumped data directory, a compiled module); tests use it. */
  pgliteStart?: PgliteStart;
  schema?: string;
  timeouts?: Partial<DatabaseTimeouts>;
};

/**
 * PostgreSQL when a URL is given, PGlite otherwise; migrations are applied before it is returned.
 * Each driver is loaded only when used: PGlite's module is large in resident memory, which an
 * API process on PostgreSQL should not carry (and pg is not needed on PGlite).
 */
export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const db = options.databaseUrl
    ? await (await import('./createPostgresDatabase.ts')).createPostgresDatabase({ url: options.databaseUrl, schema: options.schema, timeouts: options.timeouts })
    : await (await import('./createPgliteDatabase.ts')).createPgliteDatabase(options.pgliteDir ?? 'memory://', options.pgliteStart);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
