import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, SqlParam } from './Database.ts';

/** Embedded PostgreSQL (WASM). `dataDir` 'memory://' keeps everything in memory. */
export async function createPgliteDatabase(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // The default 128 MB of shared buffers is WASM memory the process keeps for good; an embedded
  // single-connection database reads through the OS page cache (or MEMFS) anyway.
  const pg = new PGlite(dataDir, { postgresqlconf: ['shared_buffers = 16MB'] });
  await pg.waitReady;
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async exec(sql: string) {
      await q.exec(sql);
    },
    async query<T>(sql: string, params?: readonly SqlParam[]) {
      const result = await q.query<T>(sql, params as unknown[] | undefined);
      return result.rows;
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
