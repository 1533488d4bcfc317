// Every PostgreSQL session of the service runs without JIT compilation (its statements are short;
// where rough estimates pass the thresholds, compiling cost more than running: docs/indexer.md
// "No JIT"), and keeps its schema when it has one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDatabase } from '../../src/db/index.ts';
import { openScratchPostgres } from '../helpers/testDatabases.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/services.ts';

describe('PostgreSQL sessions', { skip: skipWithoutPostgres }, () => {
  it('run with jit off, with and without a schema of their own', async () => {
    const plain = await createDatabase({ databaseUrl: TEST_DATABASE_URL! });
    const scratch = await openScratchPostgres(TEST_DATABASE_URL!, 'sessions');
    try {
      for (const db of [plain, scratch]) {
        // several connections of the pool, each configured alike
        const answers = await Promise.all(Array.from({ length: 4 }, () => db.query<{ jit: string }>(`SELECT current_setting('jit') AS jit, pg_sleep(0.05)`)));
        assert.deepEqual(answers.map((rows) => rows[0]!.jit), ['off', 'off', 'off', 'off']);
      }
      const [path] = await scratch.query<{ p: string }>(`SELECT current_setting('search_path') AS p`);
      assert.match(path!.p, /^sessions_/);
    } finally {
      await plain.close();
      await scratch.close();
    }
  });
});
