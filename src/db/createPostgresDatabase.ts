import pg from 'pg';
import type { Database, Queryable, SqlParam } from './Database.ts';

// int8 and count(*) as JS numbers (they stay far below 2^53 here); numeric stays an exact string.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type PostgresOptions = { url: string; schema?: string; maxConnections?: number };

/** PostgreSQL through a pool; `schema` (created when missing) isolates a test run or a tenant. */
export async function createPostgresDatabase(options: PostgresOptions): Promise<Database> {
  const { url, schema, maxConnections = 10 } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const run = async <T>(client: Pick<pg.Pool, 'query'>, sql: string, params?: readonly SqlParam[]) =>
    (await client.query(sql, params as unknown[] | undefined)).rows as T[];
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    exec: async (sql) => void (await pool.query(sql)),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          query: (sql, params) => run(client, sql, params),
          exec: async (sql) => void (await client.query(sql)),
        };
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
