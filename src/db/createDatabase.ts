import type { Database } from './Database.ts';
import { createPgliteDatabase } from './createPgliteDatabase.ts';
import { createPostgresDatabase } from './createPostgresDatabase.ts';
import { migrate } from './migrate.ts';

export type DatabaseOptions = { databaseUrl?: string; pgliteDir?: string; schema?: string };

/** PostgreSQL when a URL is given, PGlite otherwise; migrations are applied before it is returned. */
export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const db = options.databaseUrl
    ? await createPostgresDatabase({ url: options.databaseUrl, schema: options.schema })
    : await createPgliteDatabase(options.pgliteDir ?? 'memory://');
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
