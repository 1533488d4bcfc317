// The databases every storage and API suite runs on: PGlite always (from the migrated dump,
// test/helpers/pglite.ts), PostgreSQL when TEST_DATABASE_URL is set (each run in its own schema,
// dropped afterwards); without it the PostgreSQL suites are skipped with a reason naming the variable.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { bumpDataGeneration, createDatabase, type Database, type DatabaseOptions } from '../../src/db/index.ts';
import { openPglite } from './pglite.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from './services.ts';

/**
 * A database to run a suite on; `skip` is the suite's skip option (false, or why not). `open`
 * gives a migrated database; `openEmpty` one whose every migration was applied by this call to an
 * empty cluster (PostgreSQL's `open` always is: a new schema).
 */
export type TestDatabase = { name: string; skip: false | string; open(): Promise<Database>; openEmpty(): Promise<Database> };

async function openPostgres(): Promise<Database> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  return openScratchPostgres(TEST_DATABASE_URL, 'test');
}

export const testDatabases: TestDatabase[] = [
  { name: 'pglite', skip: false, open: openPglite, openEmpty: () => createDatabase({ pgliteDir: 'memory://' }) },
  { name: 'postgres', skip: skipWithoutPostgres, open: openPostgres, openEmpty: openPostgres },
];

/** PostgreSQL at `url` in a schema of its own, dropped when the database is closed. */
export async function openScratchPostgres(url: string, prefix: string, options: Pick<DatabaseOptions, 'timeouts'> & { schema?: string } = {}): Promise<Database> {
  const schema = options.schema ?? `${prefix}_${randomBytes(6).toString('hex')}`;
  const db = await createDatabase({ databaseUrl: url, schema, timeouts: options.timeouts });
  const close = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  });
}

/** Empties every data table between tests, keeping the schema. */
export async function resetDatabase(db: Database): Promise<void> {
  await db.query(`TRUNCATE swaps, price_points, tokens, pools`);
  await bumpDataGeneration(db);
}
