// A fresh, migrated PGlite for a test in well under a second. A PGlite made from nothing runs
// initdb in WASM (about 6 s of CPU), and every test file opens several. So the cluster that
// initdb and the real migrations (src/db/migrate.ts) make is dumped once (PGlite's dumpDataDir)
// to node_modules/.cache, under a key of the PGlite version and the migrations' text, and every
// database starts from that dump instead (createDatabase's `pgliteStart`), still through
// createDatabase, which checks the migrations again. pglite.wasm is compiled once per process.
// The dump leaves out the template databases (template0, template1): no test creates a database,
// and they were 15 of its 41 MB, which every open unpacks and PostgreSQL's start then reads.
// test/db/migrate.test.ts applies the migrations to an empty cluster, as production does.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createDatabase, listMigrations, migrate, type Database } from '../../src/db/index.ts';
import { pgliteDatabase } from '../../src/db/createPgliteDatabase.ts';

const pgliteDir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
const cacheDir = resolve(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'token-api-tests');

/** A Blob over bytes already in memory: Node 20 copies a Blob's bytes on creation and again, in chunks, on arrayBuffer(). */
class BytesBlob extends Blob {
  readonly #bytes: ArrayBuffer;
  constructor(bytes: ArrayBuffer) {
    super([]);
    this.#bytes = bytes;
  }
  override get size() {
    return this.#bytes.byteLength;
  }
  override arrayBuffer() {
    // PGlite only reads the bytes (untar, then copies each file into its file system): no copy.
    return Promise.resolve(this.#bytes);
  }
  override stream() {
    return new Blob([this.#bytes]).stream();
  }
}

let wasm: Promise<WebAssembly.Module> | undefined;
/** pglite.wasm, compiled once per process. */
export function pgliteWasmModule(): Promise<WebAssembly.Module> {
  wasm ??= WebAssembly.compile(readFileSync(join(pgliteDir, 'pglite.wasm')));
  return wasm;
}

let dump: Promise<ArrayBuffer> | undefined;
/** The migrated cluster as PGlite dumps it: read from the cache, made (and cached) when missing. */
function migratedDump(): Promise<ArrayBuffer> {
  dump ??= (async () => {
    const hash = createHash('sha256');
    hash.update(readFileSync(join(pgliteDir, '..', 'package.json')));
    hash.update('without template databases');
    for (const m of listMigrations()) hash.update(`\0${m.version}\0${m.name}\0${m.sql}`);
    const path = join(cacheDir, `pglite-migrated-${hash.digest('hex').slice(0, 16)}.tar`);
    try {
      const bytes = readFileSync(path);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    } catch {
      // not made yet (or by a run with other migrations)
    }
    const pg = new PGlite('memory://', { pgliteWasmModule: await pgliteWasmModule() });
    await pg.waitReady;
    await migrate(pgliteDatabase(pg));
    // One statement per query: DROP DATABASE refuses to run inside a multi-statement batch.
    await pg.query(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
    for (const name of ['template0', 'template1']) await pg.query(`DROP DATABASE ${name}`);
    await pg.query('CHECKPOINT');
    const bytes = await (await pg.dumpDataDir('none')).arrayBuffer();
    await pg.close();
    // Another test process may write the same file at the same time: each writes its own and renames.
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, new Uint8Array(bytes));
    renameSync(tmp, path);
    return bytes;
  })();
  return dump;
}

/** A new in-memory PGlite with every migration applied, opened through createDatabase. */
export async function openPglite(): Promise<Database> {
  const [bytes, wasmModule] = await Promise.all([migratedDump(), pgliteWasmModule()]);
  return createDatabase({ pgliteDir: 'memory://', pgliteStart: { loadDataDir: new BytesBlob(bytes), wasmModule } });
}

/** Opens migrated in-memory PGlites (`open`, in tests) and closes every one it opened (`closeAll`, in `after`). */
export function pgliteOpener(): { open(): Promise<Database>; closeAll(): Promise<void> } {
  const opened: Database[] = [];
  return {
    async open() {
      const db = await openPglite();
      opened.push(db);
      return db;
    },
    async closeAll() {
      for (const db of opened.splice(0)) await db.close();
    },
  };
}

/**
 * Fills an empty directory with the migrated cluster, for a `serve` process given it as
 * PGLITE_DIR whose test is not about a first start (PGlite then skips initdb, as on any restart).
 */
export async function seedPgliteDir(dir: string): Promise<void> {
  const bytes = await migratedDump();
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('tar', ['-x', '-f', '-', '-C', dir], { input: new Uint8Array(bytes), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tar could not unpack the PGlite dump into ${dir}: ${r.error?.message ?? r.stderr}`);
}
