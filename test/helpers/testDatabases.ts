// The databases every storage and API suite runs on: PGlite always, PostgreSQL when
// TEST_DATABASE_URL is set (each run in its own schema, dropped afterwards).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { bumpDataGeneration, createDatabase, type Database } from '../../src/db/index.ts';

export type TestDatabase = { name: string; open(): Promise<Database> };

export const testDatabases: TestDatabase[] = [
  { name: 'pglite', open: () => createDatabase({ pgliteDir: 'memory://' }) },
];

const url = process.env.TEST_DATABASE_URL;
if (url) {
  testDatabases.push({
    name: 'postgres',
    async open() {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      const db = await createDatabase({ databaseUrl: url, schema });
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
    },
  });
}

/** Empties every data table between tests, keeping the schema. */
export async function resetDatabase(db: Database): Promise<void> {
  await db.query(`TRUNCATE swaps, price_points, tokens`);
  await bumpDataGeneration(db);
}
