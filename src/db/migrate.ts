import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './Database.ts';

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export type Migration = { version: number; name: string; sql: string };

/** The versioned migrations in src/db/migrations, `NNN_name.sql`, in version order. */
export function listMigrations(): Migration[] {
  return readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: readFileSync(join(migrationsDir, file), 'utf8'),
    }));
}

/**
 * Applies the migrations not yet recorded, each in its own transaction. An advisory lock makes
 * processes that start together (several API instances on one PostgreSQL) apply them once.
 */
export async function migrate(db: Database): Promise<number[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: number[] = [];
  for (const migration of listMigrations()) {
    const done = await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(7411, hashtext(current_schema()))`);
      const rows = await tx.query(`SELECT 1 FROM schema_migrations WHERE version = $1`, [migration.version]);
      if (rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query(`INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/** True when every migration in the code is recorded in the database (used by readiness checks). */
export async function migrationsApplied(db: Database): Promise<boolean> {
  const rows = await db.query<{ version: number }>(`SELECT version FROM schema_migrations`);
  const have = new Set(rows.map((r) => Number(r.version)));
  return listMigrations().every((m) => have.has(m.version));
}
