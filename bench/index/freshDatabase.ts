// A bench's own PostgreSQL database, dropped and created empty (never the tests' `test` or `postgres`).
import pg from 'pg';

/** Drops and creates `database` on `server` (postgres://user@host:port); returns its URL. */
export async function freshDatabase(server: string, database: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database) || database === 'test' || database === 'postgres') throw new Error(`--database: not a bench database name: ${database}`);
  const admin = new pg.Client(`${server}/postgres`);
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  return `${server}/${database}`;
}
