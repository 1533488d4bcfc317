// A process starts whether or not PostgreSQL answers: the database it gets fails every call with
// DatabaseUnavailableError (503 with Retry-After to API clients) until a connection is made and
// the migrations are applied, tried on a schedule in the background. PGlite runs in the process
// and is opened (and migrated) before this returns, as createDatabase does.
import type { DatabaseRetrySchedule } from '../config/databaseTimeouts.ts';
import { DatabaseUnavailableError } from '../errors/index.ts';
import { createDatabase, type DatabaseOptions } from './createDatabase.ts';
import type { Database } from './Database.ts';
import { migrate } from './migrate.ts';

export type RetryingDatabase = {
  /** The database; until `ready` settles every call fails with DatabaseUnavailableError. */
  db: Database;
  /** Resolves once the database answered and its migrations are applied. */
  ready: Promise<void>;
  isReady(): boolean;
};

export type RetryingDatabaseOptions = DatabaseOptions & {
  retry: DatabaseRetrySchedule;
  /** Each failed attempt (its error, which may name the address: for this process's log only). */
  onAttemptFailed?: (error: unknown, attempt: number, nextInMs: number) => void;
  /** Once ready: how many attempts it took and how long since the first. */
  onReady?: (attempts: number, ms: number) => void;
};

// Not unref'd: while the database is awaited, the retries are what keeps the process running.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * PostgreSQL (databaseUrl): returns once the first attempt succeeded or failed (at most
 * `retry.maxMs`), the database ready or not; attempts start at `retry.initialMs` apart, doubling
 * up to `retry.maxMs`. An attempt is given at most `retry.maxMs` before the next one starts
 * (across a partition a connection attempt hangs until its connect timeout): so the database is
 * ready within about `retry.maxMs` plus the migrations' time of answering again.
 */
export async function openDatabaseRetrying(options: RetryingDatabaseOptions): Promise<RetryingDatabase> {
  if (!options.databaseUrl) {
    const db = await createDatabase(options);
    return { db, ready: Promise.resolve(), isReady: () => true };
  }
  const { createPostgresDatabase } = await import('./createPostgresDatabase.ts');
  const url = options.databaseUrl;
  let inner: Database | undefined;
  let opening: Promise<Database> | undefined;
  let ready = false;
  let closed = false;
  let lastError: unknown;

  /** One attempt: a connection (schema created when one is named), then the migrations. */
  async function attempt(): Promise<void> {
    opening ??= createPostgresDatabase({ url, schema: options.schema, timeouts: options.timeouts }).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    const opened = await opening;
    await migrate(opened);
    inner = opened;
  }

  async function untilReady(): Promise<void> {
    const started = Date.now();
    let delay = options.retry.initialMs;
    for (let n = 1; !closed; n++) {
      const work = attempt();
      work.catch(() => {}); // one outlived by the next attempt still settles (its connect timeout)
      try {
        await Promise.race([
          work,
          sleep(options.retry.maxMs).then(() => {
            throw new DatabaseUnavailableError(undefined, { details: `no answer within ${options.retry.maxMs} ms` });
          }),
        ]);
        if (closed) return;
        ready = true;
        options.onReady?.(n, Date.now() - started);
        return;
      } catch (error) {
        lastError = error;
        options.onAttemptFailed?.(error, n, delay);
      }
      await sleep(delay);
      delay = Math.min(options.retry.maxMs, delay * 2);
    }
  }

  const unavailable = () => new DatabaseUnavailableError(undefined, { cause: lastError, details: 'not connected yet since start-up' });
  const live = (): Database => {
    if (!ready || !inner) throw unavailable();
    return inner;
  };
  const db: Database = {
    kind: 'postgres',
    query: async (sql, params) => live().query(sql, params),
    exec: async (sql) => live().exec(sql),
    transaction: async (fn) => live().transaction(fn),
    openSession: async (settings, sessionOptions) => live().openSession!(settings, sessionOptions),
    async close() {
      closed = true;
      await inner?.close();
    },
  };
  // The first attempt is awaited (at most retry.maxMs): a database that answers is ready before
  // the process goes on, as createDatabase's was.
  const whenReady = untilReady();
  await Promise.race([whenReady, sleep(options.retry.maxMs)]);
  return { db, ready: whenReady, isReady: () => ready };
}
