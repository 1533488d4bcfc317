import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, SqlParam } from './Database.ts';

/**
 * How a new PGlite starts, both optional: `loadDataDir`, a data directory PGlite dumped
 * (dumpDataDir), instead of an empty cluster made by initdb; `wasmModule`, pglite.wasm already
 * compiled, instead of compiling it again.
 */
export type PgliteStart = { loadDataDir?: Blob; wasmModule?: WebAssembly.Module };

/** Embedded PostgreSQL (WASM). `dataDir` 'memory://' keeps everything in memory. */
export async function createPgliteDatabase(dataDir: string, start: PgliteStart = {}): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // Shared buffers are WASM memory: pages stay resident once touched, so they are kept small (an
  // API process answers from its in-memory catalogue; PGlite reads the rest through the OS page
  // cache, or MEMFS; docs/performance.md, memory). PGlite's `initialMemory` cannot go below the
  // module's own reservation: it shows as "external" memory, but only its touched part is
  // resident.
  const pg = new PGlite(dataDir, {
    postgresqlconf: ['shared_buffers = 8MB'],
    ...(start.loadDataDir ? { loadDataDir: start.loadDataDir } : {}),
    ...(start.wasmModule ? { pgliteWasmModule: start.wasmModule } : {}),
  });
  await pg.waitReady;
  return pgliteDatabase(pg);
}

/** The Database interface over a PGlite instance; closing it closes the instance. */
export function pgliteDatabase(pg: PGlite): Database {
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
    dumpDataDir: () => pg.dumpDataDir('gzip') as Promise<Blob>,
  };
}
