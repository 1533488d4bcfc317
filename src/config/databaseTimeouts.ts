import type { EnvReader } from './readEnv.ts';

/**
 * The bounds every PostgreSQL connection works within (PGlite runs in the process and has none):
 * how long to wait for a connection, for a statement on the server and for an answer on the
 * client, how long an idle pooled connection is kept, and when TCP keepalive starts probing.
 */
export type DatabaseTimeouts = {
  /** A new connection that is not ready within this fails (pg connectionTimeoutMillis). */
  connectTimeoutMs: number;
  /**
   * The server cancels a statement running longer (statement_timeout), and ends a session left
   * idle inside a transaction this long (idle_in_transaction_session_timeout).
   */
  statementTimeoutMs: number;
  /** The client gives up on an answer not received within this, e.g. across a partition (pg query_timeout). */
  queryTimeoutMs: number;
  /** A pooled connection idle this long is closed (pg idleTimeoutMillis). */
  idleTimeoutMs: number;
  /** TCP keepalive probes start after this much silence (pg keepAliveInitialDelayMillis). */
  keepAliveDelayMs: number;
};

export const databaseTimeoutDefaults: DatabaseTimeouts = {
  connectTimeoutMs: 5000,
  statementTimeoutMs: 15_000,
  queryTimeoutMs: 20_000,
  idleTimeoutMs: 30_000,
  keepAliveDelayMs: 10_000,
};

/** DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, DB_QUERY_TIMEOUT_MS, DB_IDLE_TIMEOUT_MS, DB_KEEPALIVE_DELAY_MS. */
export function readDatabaseTimeouts(read: EnvReader): DatabaseTimeouts {
  const d = databaseTimeoutDefaults;
  return {
    connectTimeoutMs: read.integer('DB_CONNECT_TIMEOUT_MS', d.connectTimeoutMs, 100, 600_000),
    statementTimeoutMs: read.integer('DB_STATEMENT_TIMEOUT_MS', d.statementTimeoutMs, 100, 3_600_000),
    queryTimeoutMs: read.integer('DB_QUERY_TIMEOUT_MS', d.queryTimeoutMs, 100, 3_600_000),
    idleTimeoutMs: read.integer('DB_IDLE_TIMEOUT_MS', d.idleTimeoutMs, 100, 3_600_000),
    keepAliveDelayMs: read.integer('DB_KEEPALIVE_DELAY_MS', d.keepAliveDelayMs, 100, 3_600_000),
  };
}

/**
 * How a process started while PostgreSQL does not answer tries again: the first retry after
 * `initialMs`, each next one twice as late, at most `maxMs` apart; an attempt not done within
 * `maxMs` is outlived by the next. The process is ready about `maxMs` after the database answers.
 */
export type DatabaseRetrySchedule = { initialMs: number; maxMs: number };

/** DB_START_RETRY_INITIAL_MS (250), DB_START_RETRY_MAX_MS (1000). */
export function readDatabaseRetrySchedule(read: EnvReader): DatabaseRetrySchedule {
  const initialMs = read.integer('DB_START_RETRY_INITIAL_MS', 250, 10, 60_000);
  const maxMs = read.integer('DB_START_RETRY_MAX_MS', 1000, 10, 600_000);
  return { initialMs: Math.min(initialMs, maxMs), maxMs };
}
