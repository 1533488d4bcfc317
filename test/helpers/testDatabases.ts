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
      try {
        // The database's own connections are closed. A server backend whose client a fault test
        // cut off (a proxy dropping the connection) may still hold locks in the schema until its
        // TCP keepalive notices: it is an orphan, and DROP SCHEMA would wait for it.
        await admin.query(`SET lock_timeout = '3s'`);
        for (let attempt = 1; ; attempt++) {
          await admin.query(
            `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = $1 AND l.pid <> pg_backend_pid()`,
            [schema],
          );
          try {
            await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
            break;
          } catch (error) {
            if (attempt >= 5 || (error as { code?: string }).code !== '55P03') throw error; // lock_not_available
          }
        }
      } finally {
        await admin.end();
      }
    },
  });
}

/** Empties every data table between tests, keeping the schema. */
export async function resetDatabase(db: Database): Promise<void> {
  await db.query(`TRUNCATE swaps, price_points, tokens, pools`);
  await bumpDataGeneration(db);
}
