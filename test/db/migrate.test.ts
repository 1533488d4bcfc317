import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listMigrations, migrate, migrationsApplied } from '../../src/db/index.ts';
import { testDatabases } from '../helpers/testDatabases.ts';

for (const target of testDatabases) {
  describe(`migrations on ${target.name}`, { skip: target.skip }, () => {
    it('are applied once and recorded; running them again changes nothing', async () => {
      const db = await target.openEmpty();
      try {
        assert.equal(await migrationsApplied(db), true);
        assert.deepEqual(await migrate(db), []);
        const rows = await db.query<{ version: number }>(`SELECT version FROM schema_migrations ORDER BY version`);
        assert.deepEqual(rows.map((r) => Number(r.version)), listMigrations().map((m) => m.version));
      } finally {
        await db.close();
      }
    });
  });
}
