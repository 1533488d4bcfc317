// PostgreSQL cut by a TCP proxy: every call fails in bounded time with DatabaseUnavailableError
// (a partition used to hang for good: no connect, query or statement timeout), a connection that
// failed is never handed out again, and the pool works again once the database is back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DatabaseUnavailableError } from '../../src/errors/index.ts';
import { openProxiedPostgres, shortTimeouts, timed, withDeadline, type ProxiedPostgres } from '../helpers/proxiedPostgres.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/services.ts';

// The longest a call may take with the short timeouts: connect or answer timeout plus slack.
const BOUND_MS = Math.max(shortTimeouts.connectTimeoutMs, shortTimeouts.queryTimeoutMs) + 700;

describe('PostgreSQL faults through a proxy', { skip: skipWithoutPostgres }, () => {
  let pg: ProxiedPostgres;
  before(async () => {
    pg = await openProxiedPostgres(TEST_DATABASE_URL!);
  });
  after(() => pg?.close());

  const calls = [
    { name: 'a query', run: (p: ProxiedPostgres) => p.db.query('SELECT 1 AS one') },
    { name: 'a transaction', run: (p: ProxiedPostgres) => p.db.transaction((tx) => tx.query('SELECT 1 AS one')) },
  ];
  for (const mode of ['partition', 'refuse'] as const) {
    for (const call of calls) {
      it(`${call.name} during a ${mode} fails within the timeouts, as DatabaseUnavailableError, then works again`, async () => {
        await pg.db.query('SELECT 1'); // a pooled connection open when the fault starts
        await pg.proxy.setMode(mode);
        try {
          for (let i = 0; i < 2; i++) {
            const r = await withDeadline(timed(() => call.run(pg)), 10_000, `${call.name} in a ${mode}`);
            assert.ok(r.error instanceof DatabaseUnavailableError, `${mode}: ${String(r.error)}`);
            assert.ok(r.ms < BOUND_MS, `${mode}: failed after ${Math.round(r.ms)} ms, bound ${BOUND_MS} ms`);
          }
        } finally {
          await pg.proxy.setMode('pass');
        }
        const back = await withDeadline(timed(() => call.run(pg)), 10_000, `${call.name} after the ${mode}`);
        assert.deepEqual(back.value, [{ one: 1 }], String(back.error));
      });
    }
  }

  it('a session (the writer lock connection) ends when cut, and says so', async () => {
    const session = await pg.db.openSession!({ idle_session_timeout: '60000' });
    assert.ok(session.pid > 0);
    await pg.proxy.setMode('partition');
    try {
      const r = await timed(() => session.query('SELECT 1'));
      assert.ok(r.error instanceof DatabaseUnavailableError);
      assert.ok(r.ms < BOUND_MS);
      assert.ok((await withDeadline(session.ended, 1000, 'session end')) instanceof Error);
    } finally {
      await pg.proxy.setMode('pass');
      await session.close();
    }
  });
});
