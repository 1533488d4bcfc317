import pg from 'pg';
import { databaseTimeoutDefaults, type DatabaseTimeouts } from '../config/databaseTimeouts.ts';
import { asDatabaseFault, isDatabaseFault } from './asDatabaseFault.ts';
import type { Database, DatabaseSession, Queryable, SqlParam } from './Database.ts';

// int8 and count(*) as JS numbers (they stay far below 2^53 here); numeric stays an exact string.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type PostgresOptions = { url: string; schema?: string; maxConnections?: number; timeouts?: Partial<DatabaseTimeouts> };

/**
 * The pg settings every connection of this database gets: its timeouts, keepalive and schema, and
 * no JIT compilation: the service's statements are short, and where rough estimates pass the JIT
 * thresholds compiling costs more than running (~9 ms a statement past jit_above_cost, 170 ms past
 * jit_inline_above_cost, measured on the window edges' query: docs/indexer.md "No JIT").
 */
function connectionConfig(url: string, schema: string | undefined, t: DatabaseTimeouts): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: t.connectTimeoutMs,
    statement_timeout: t.statementTimeoutMs,
    idle_in_transaction_session_timeout: t.statementTimeoutMs,
    query_timeout: t.queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: t.keepAliveDelayMs,
    options: `-c jit=off${schema ? ` -c search_path=${schema}` : ''}`,
  };
}

/**
 * Closes the socket of a connection that failed for want of the server: pg only half-closes it,
 * and across a partition nothing would ever close the rest.
 */
function destroyConnection(client: pg.ClientBase): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * PostgreSQL through a pool; `schema` (created when missing) isolates a test run or a tenant.
 * Every connection works within `timeouts`: a database that does not answer fails the call in
 * bounded time with DatabaseUnavailableError, and the connection is dropped, never reused.
 */
export async function createPostgresDatabase(options: PostgresOptions): Promise<Database> {
  const { url, schema, maxConnections = 10 } = options;
  const timeouts = { ...databaseTimeoutDefaults, ...options.timeouts };
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client(connectionConfig(url, undefined, timeouts));
    admin.on('error', () => {});
    try {
      await admin.connect();
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } catch (error) {
      destroyConnection(admin);
      throw asDatabaseFault(error);
    } finally {
      await admin.end().catch(() => {});
    }
  }
  const config = connectionConfig(url, schema, timeouts);
  const newPool = () => {
    const p = new pg.Pool({ ...config, max: maxConnections, idleTimeoutMillis: timeouts.idleTimeoutMs });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    p.on('error', () => {});
    return p;
  };
  let pool = newPool();
  const guarded = new WeakSet<pg.PoolClient>();

  /**
   * After a fault the connections made before it are not trusted: a new pool takes over and the
   * old one's idle connections are cut (across a partition they would hang the next call, after
   * a restart fail it), the ones in use are closed when released.
   */
  function retire(old: pg.Pool): void {
    if (old !== pool) return;
    pool = newPool();
    // pg-pool keeps its idle clients in `_idle`; without it they are closed by end() alone.
    for (const item of (old as unknown as { _idle?: { client: pg.ClientBase }[] })._idle ?? []) destroyConnection(item.client);
    old.end().catch(() => {});
  }

  /** Runs `fn` on a pooled connection; one that failed for want of the server is closed, not pooled again. */
  async function withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const from = pool;
    let client: pg.PoolClient;
    try {
      client = await from.connect();
    } catch (error) {
      if (isDatabaseFault(error)) retire(from);
      throw asDatabaseFault(error);
    }
    // A connection lost while checked out emits 'error' on its client as well as failing the call.
    if (!guarded.has(client)) {
      guarded.add(client);
      client.on('error', () => {});
    }
    try {
      const result = await fn(client);
      client.release();
      return result;
    } catch (error) {
      const fault = isDatabaseFault(error);
      if (fault) destroyConnection(client);
      client.release(fault ? (error as Error) : undefined);
      if (fault) retire(from);
      throw asDatabaseFault(error);
    }
  }
  /**
   * A transaction's statements in the order they are sent, each started when the one before it has
   * ended: a writer may send several before it awaits the first (writeBatch), and one connection
   * runs one statement at a time (pg deprecates sending while one runs).
   */
  const serially = () => {
    let last: Promise<unknown> = Promise.resolve();
    return <R,>(send: () => Promise<R>): Promise<R> => {
      const next = last.then(send);
      last = next.catch(() => {});
      return next;
    };
  };
  const run = async <T>(client: pg.ClientBase, sql: string, params?: readonly SqlParam[]) =>
    (await client.query(sql, params as unknown[] | undefined)).rows as T[];

  return {
    kind: 'postgres',
    query: (sql, params) => withClient((client) => run(client, sql, params)),
    exec: (sql) => withClient(async (client) => void (await client.query(sql))),
    transaction: (fn) =>
      withClient(async (client) => {
        await client.query('BEGIN');
        const inOrder = serially();
        try {
          const tx: Queryable = {
            query: (sql, params) => inOrder(() => run(client, sql, params)),
            exec: (sql) => inOrder(async () => void (await client.query(sql))),
          };
          const result = await fn(tx);
          await inOrder(() => client.query('COMMIT'));
          return result;
        } catch (error) {
          // A lost connection rolls back on the server by itself; asking would wait for nothing.
          if (!isDatabaseFault(error)) await inOrder(() => client.query('ROLLBACK')).catch(() => {});
          throw error;
        }
      }),
    openSession: (settings, sessionOptions) =>
      openSession(sessionOptions?.queryTimeoutMs ? { ...config, query_timeout: sessionOptions.queryTimeoutMs } : config, settings),
    close: () => pool.end(),
  };
}

/** A connection of its own with `settings` applied; `ended` settles when it goes away. */
async function openSession(config: pg.ClientConfig, settings: Record<string, string> = {}): Promise<DatabaseSession> {
  const client = new pg.Client(config);
  let settle!: (error: Error | undefined) => void;
  const ended = new Promise<Error | undefined>((resolve) => (settle = resolve));
  client.on('error', (error) => {
    destroyConnection(client);
    settle(error);
  });
  client.on('end', () => settle(undefined));
  try {
    await client.connect();
    // A session of its own (the writer lock) never keeps the process alive by itself.
    (client as unknown as { connection?: { stream?: { unref?(): void } } }).connection?.stream?.unref?.();
    for (const [name, value] of Object.entries(settings)) {
      if (!/^[a-z_]+$/.test(name)) throw new Error(`invalid setting name ${name}`);
      await client.query(`SELECT set_config($1, $2, false)`, [name, value]);
    }
    const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    const guard = async <T>(work: Promise<T>): Promise<T> => {
      try {
        return await work;
      } catch (error) {
        if (isDatabaseFault(error)) {
          destroyConnection(client);
          settle(error as Error);
        }
        throw asDatabaseFault(error);
      }
    };
    return {
      pid,
      ended,
      query: async <T>(sql: string, params?: readonly SqlParam[]) => (await guard(client.query(sql, params as unknown[] | undefined))).rows as T[],
      exec: async (sql) => void (await guard(client.query(sql))),
      async close() {
        // Ended politely when the server answers (the lock goes at once), cut otherwise.
        await Promise.race([client.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
        destroyConnection(client);
        settle(undefined);
      },
    };
  } catch (error) {
    destroyConnection(client);
    await client.end().catch(() => {});
    throw asDatabaseFault(error);
  }
}
