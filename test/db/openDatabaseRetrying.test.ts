// Issue 30 (3): a database opened while PostgreSQL refuses or is partitioned. openDatabaseRetrying
// returns after its first attempt (at most the schedule's maximum), every call fails fast with
// DatabaseUnavailableError until PostgreSQL answers, and it is ready (connected, migrated) within
// about the maximum of it answering — across a partition too, where an attempt hangs until its
// connect timeout (2 s here, four times the retry maximum) and is outlived by the next one.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { migrationsApplied, openDatabaseRetrying } from '../../src/db/index.ts';
import { DatabaseUnavailableError } from '../../src/errors/index.ts';
import { throughProxy } from '../helpers/proxiedPostgres.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/services.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy.ts';

const RETRY = { initialMs: 100, maxMs: 500 };

describe('openDatabaseRetrying: PostgreSQL down at start', { skip: skipWithoutPostgres }, () => {
  let proxy: TcpProxy;
  let admin: pg.Client;
  const schemas: string[] = [];
  before(async () => {
    const target = new URL(TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  after(async () => {
    await proxy?.close();
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
  });

  for (const mode of ['refuse', 'partition'] as const) {
    it(`${mode}: starts, fails calls fast with DatabaseUnavailableError, is ready within the retry maximum of PostgreSQL answering`, async () => {
      const schema = `retry_${randomBytes(5).toString('hex')}`;
      schemas.push(schema);
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(throughProxy(TEST_DATABASE_URL!, proxy));
      url.searchParams.set('options', `-c search_path=${schema}`);
      await proxy.setMode(mode);
      const failures: number[] = [];
      const opening = performance.now();
      const database = await openDatabaseRetrying({
        databaseUrl: url.toString(),
        timeouts: { connectTimeoutMs: 2000, queryTimeoutMs: 2000 },
        retry: RETRY,
        onAttemptFailed: (_error, attempt) => failures.push(attempt),
      });
      try {
        const openMs = performance.now() - opening;
        assert.ok(openMs < RETRY.maxMs + 1000, `returned in ${Math.round(openMs)} ms`);
        assert.equal(database.isReady(), false);
        const call = performance.now();
        await assert.rejects(database.db.query('SELECT 1'), (error: unknown) => error instanceof DatabaseUnavailableError && error.shortMessage === 'The database does not answer.');
        assert.ok(performance.now() - call < 100, 'a call fails at once');
        await new Promise((r) => setTimeout(r, 1200));
        assert.ok(failures.length >= 2, `attempts go on (${failures.length} failed)`);

        await proxy.setMode('pass');
        const answering = performance.now();
        await database.ready;
        const readyMs = performance.now() - answering;
        assert.ok(await migrationsApplied(database.db), 'migrated');
        assert.ok(readyMs < RETRY.maxMs + 1500, `ready ${Math.round(readyMs)} ms after PostgreSQL answered (maximum ${RETRY.maxMs} ms apart)`);
        process.stdout.write(`# ${mode}: ready ${Math.round(readyMs)} ms after PostgreSQL answered, ${failures.length} attempts failed before\n`);
      } finally {
        await proxy.setMode('pass');
        await database.db.close();
      }
    });
  }
});
