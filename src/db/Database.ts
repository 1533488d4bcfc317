// The one storage interface every module uses: the same SQL runs on PGlite and on PostgreSQL.
export type SqlParam = string | number | boolean | null | Date | readonly (string | number | boolean | null)[];

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/**
 * One connection of its own, outside the pool (PostgreSQL only): what session-level state such
 * as an advisory lock lives on. It ends when closed or when its connection is lost.
 */
export interface DatabaseSession extends Queryable {
  /** The server process of this connection (pg_backend_pid()), as pg_locks names it. */
  readonly pid: number;
  /** Settles when the connection is gone (closed, lost, or ended by the server). */
  readonly ended: Promise<Error | undefined>;
  close(): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * A dedicated connection with these session settings (set_config(name, value)), its answers
   * awaited at most `queryTimeoutMs` (default: the database's); PostgreSQL only.
   */
  openSession?(settings?: Record<string, string>, options?: { queryTimeoutMs?: number }): Promise<DatabaseSession>;
  /** PGlite only: its data directory as a gzipped tarball, to start a new PGlite from (loadDataDir). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}
