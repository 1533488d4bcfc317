// The indexer's writer lock: one process writes the index, any other waits as a hot standby.
import { BaseError } from '../../errors/index.ts';
import type { Database, DatabaseSession, Queryable } from '../Database.ts';

/** The advisory lock's first key; the second is the schema's hash, so schemas do not share it. */
const LOCK_CLASS = 7412;

/** A write found that this process no longer holds the writer lock, or that another writer moved the checkpoint. */
export class WriterFencedError extends BaseError {
  override name = 'WriterFencedError';
}

export type WriterLock = {
  /** True when this process holds the lock, taking it if it is free; false while another holds it. */
  acquire(): Promise<boolean>;
  held(): boolean;
  /**
   * The first statement of every index write transaction: locks the checkpoint row, then
   * checks that the lock is still this process's and the checkpoint is still `expected` (the
   * block the write continues from, null when none); throws WriterFencedError otherwise.
   */
  fence(tx: Queryable, expected: number | null): Promise<void>;
  /** Called when the lock's connection is lost while held: writing must stop. */
  onLost(listener: (error: Error) => void): void;
  release(): Promise<void>;
};

export type WriterLockOptions = {
  /** The lock connection is checked this often; a check not answered within CLIENT_MISSED times this loses the lock. */
  heartbeatMs: number;
};

/**
 * Heartbeats missed before this side drops the lock, and before the server ends a silent session
 * (freeing the lock for a standby). Both count wall time, and a check's timer also runs out while
 * the event loop is busy: a step's longest stretch of JavaScript, several times longer on a loaded
 * machine, must stay under them. Fencing (every write checks pg_locks) keeps two writers apart
 * whatever these are; they only set how soon a cut-off writer is replaced.
 */
const CLIENT_MISSED = 10;
const SERVER_MISSED = 20;

/**
 * A session-level advisory lock (pg_try_advisory_lock) on a connection of its own, with TCP
 * keepalive (the database's) and a heartbeat. A lost connection loses the lock at once on this
 * side; on the server the lock goes with the session: at once when the process dies, and within
 * idle_session_timeout (SERVER_MISSED heartbeats) when the connection is cut silently. PGlite is one process:
 * the lock is always held there.
 */
export function createWriterLock(db: Database, options: WriterLockOptions): WriterLock {
  if (!db.openSession) return alwaysHeld(db);
  const listeners: ((error: Error) => void)[] = [];
  let session: DatabaseSession | undefined;
  let opening: Promise<DatabaseSession> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let key = 0;
  let held = false;

  function ended(s: DatabaseSession, error: Error | undefined): void {
    if (session !== s) return;
    session = undefined;
    clearInterval(heartbeat);
    if (!held) return;
    held = false;
    const lost = new WriterFencedError('the writer lock connection was lost', { cause: error });
    for (const listener of listeners) listener(lost);
  }

  async function connect(): Promise<DatabaseSession> {
    if (session) return session;
    opening ??= (async () => {
      const s = await db.openSession!(
        // The server ends a session silent for SERVER_MISSED heartbeats: a leader cut off from the
        // database frees the lock for the standby even when its connection is not closed.
        { idle_session_timeout: String(options.heartbeatMs * SERVER_MISSED) },
        { queryTimeoutMs: options.heartbeatMs * CLIENT_MISSED },
      );
      key = (await s.query<{ key: number }>(`SELECT hashtext(current_schema()) & 2147483647 AS key`))[0]!.key;
      session = s;
      void s.ended.then((error) => ended(s, error));
      heartbeat = setInterval(() => void s.query('SELECT 1').catch(() => {}), options.heartbeatMs);
      heartbeat.unref();
      return s;
    })().finally(() => (opening = undefined));
    return opening;
  }

  return {
    async acquire() {
      if (held) return true;
      const s = await connect();
      const rows = await s.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1, $2) AS locked`, [LOCK_CLASS, key]);
      held = rows[0]?.locked === true && session === s;
      return held;
    },
    held: () => held,
    async fence(tx, expected) {
      const s = session;
      if (!held || !s) throw new WriterFencedError('this process does not hold the writer lock');
      const checkpoint = await tx.query<{ block: number }>(`SELECT block_number AS block FROM indexer_checkpoint WHERE id = 1 FOR UPDATE`);
      const mine = await tx.query(
        `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 2 AND pid = $3 AND granted`,
        [LOCK_CLASS, key, s.pid],
      );
      if (mine.length === 0) throw new WriterFencedError('the writer lock is no longer held by this process');
      const at = checkpoint[0] ? Number(checkpoint[0].block) : null;
      if (at !== expected) throw new WriterFencedError(`the checkpoint moved to ${at} (expected ${expected}): another writer`);
    },
    onLost: (listener) => void listeners.push(listener),
    async release() {
      const s = session;
      held = false;
      session = undefined;
      clearInterval(heartbeat);
      await s?.close();
    },
  };
}

function alwaysHeld(db: Database): WriterLock {
  return {
    acquire: async () => true,
    held: () => true,
    async fence(tx, expected) {
      // One process: only the checkpoint can have moved (a second indexer object on one PGlite).
      const rows = await tx.query<{ block: number }>(`SELECT block_number AS block FROM indexer_checkpoint WHERE id = 1`);
      const at = rows[0] ? Number(rows[0].block) : null;
      if (at !== expected) throw new WriterFencedError(`the checkpoint moved to ${at} (expected ${expected}): another writer`);
    },
    onLost: () => {},
    release: async () => void db,
  };
}
