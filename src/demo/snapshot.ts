// The demo computed once and then loaded: a snapshot of the chain (Anvil's dump of every block,
// transaction, receipt and the state at each block) and of the indexed database (PGlite's dumped
// data directory), each under a key of what made it (snapshotKeys.ts).
//
// The rules, for `npm start` and for the tests that need a demo chain:
// - A missing, stale (other key), corrupt or aged snapshot is rebuilt, with one log line that
//   says why; a failure to write one is logged and the demo runs on. Nothing here crashes a start.
// - The database part is also tied to the chain snapshot it was indexed from (its head's hash):
//   when only the database key differs, the service re-indexes from the chain snapshot.
// - Wall clock: a snapshot whose head is at most `maxCatchUpSec` (6 h) behind the wall clock is
//   caught up after loading (catchUp.ts: the market trades on to now at the history's spacing);
//   an older one is rebuilt. Either way the head is at the wall clock and the last 24 h are as
//   dense as on a fresh start.
//
// Layout of the directory (DEMO_SNAPSHOT_DIR, default data/demo-snapshot):
//   chain.json       Anvil's state (--dump-state with --preserve-historical-states)
//   chain.meta.json  its key, size, head, the deployment and the history's report
//   db.tar.gz        PGlite's dumped data directory, indexed up to the chain snapshot's head
//   db.meta.json     its key, size and the chain head it was indexed from
// Each file is written under a temporary name and renamed; the meta file goes last.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { anvilBinary, startAnvilChain, type AnvilChain } from './anvil.ts';
import { deployDemo, type DemoDeployment } from './deploy.ts';
import { DEFAULT_HISTORY_DAYS, DEFAULT_HISTORY_HOURS, DEFAULT_SEED, simulateHistory, type SimulationReport } from './simulate.ts';
import { chainKey, databaseKey, repoRoot } from './snapshotKeys.ts';

export const DEFAULT_SNAPSHOT_DIR = join(repoRoot, 'data', 'demo-snapshot');
/** An older snapshot is rebuilt rather than caught up (catching up costs about 40 ms a block, 6 blocks an hour). */
export const MAX_CATCH_UP_SEC = 6 * 3600;

export type SnapshotLog = (message: string, fields?: Record<string, unknown>) => void;

interface ChainMeta {
  key: string;
  stateBytes: number;
  head: { number: number; hash: string; timestamp: number };
  createdAt: string;
  deployment: DemoDeployment;
  history: SimulationReport;
}

interface DatabaseMeta {
  key: string;
  chainHead: string;
  dumpBytes: number;
  createdAt: string;
}

export interface DemoSnapshotOptions {
  dir?: string;
  seed?: number;
  port?: number;
  host?: string;
  maxCatchUpSec?: number;
  /** One line per rebuild, saying why; and a line when a snapshot cannot be written. */
  log?: SnapshotLog;
  now?: () => number;
  /**
   * Called once when the chain is built rather than loaded: no database part can match a chain
   * built now, so the caller may start an empty database meanwhile (main.ts does).
   */
  onBuild?: () => void;
}

export interface SnapshotChain {
  chain: AnvilChain;
  deployment: DemoDeployment;
  history: SimulationReport;
  key: string;
  /** The chain snapshot's head: the block the database part is indexed up to. */
  head: ChainMeta['head'];
  /** 'loaded' from the snapshot, or 'built' (with the reason it was rebuilt). */
  source: 'loaded' | 'built';
  rebuilt?: string;
  timings: { chainMs: number; deployMs: number; historyMs: number; loadMs: number };
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** Why the chain snapshot in `dir` cannot be used (undefined: it can). */
function chainProblem(dir: string, key: string, nowSec: number, maxCatchUpSec: number): { reason: string; meta?: ChainMeta } {
  let meta: ChainMeta;
  try {
    meta = readJson<ChainMeta>(join(dir, 'chain.meta.json'));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { reason: missing ? 'missing' : `corrupt (chain.meta.json: ${(error as Error).message})` };
  }
  if (meta.key !== key) return { reason: `stale (key ${meta.key}, now ${key}: the contracts, src/demo, the seed or the node changed)` };
  const size = sizeOf(join(dir, 'chain.json'));
  if (size !== meta.stateBytes) return { reason: `corrupt (chain.json is ${size ?? 'missing'} bytes, ${meta.stateBytes} written)` };
  const age = nowSec - meta.head.timestamp;
  if (age > maxCatchUpSec) return { reason: `aged (its head is ${(age / 3600).toFixed(1)} h behind the wall clock; at most ${maxCatchUpSec / 3600} h is caught up)` };
  return { reason: '', meta };
}

/**
 * The demo chain from the snapshot in `dir`, or built (and saved there) when that cannot be
 * used. Not yet caught up to the wall clock: the database part (openDatabaseSnapshot) is for the
 * snapshot's head, so the caller indexes or loads it first, then calls catchUpToNow (catchUp.ts).
 */
export async function openSnapshotChain(options: DemoSnapshotOptions = {}): Promise<SnapshotChain> {
  const dir = options.dir ?? DEFAULT_SNAPSHOT_DIR;
  const seed = options.seed ?? DEFAULT_SEED;
  const log = options.log ?? (() => {});
  const nowSec = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const key = chainKey({ seed, node: `anvil ${anvilBinary().version}` });
  const { reason, meta } = chainProblem(dir, key, nowSec, options.maxCatchUpSec ?? MAX_CATCH_UP_SEC);
  if (meta) {
    const started = performance.now();
    const loaded = await loadChain(dir, meta, options).catch((error: unknown) => error as Error);
    if (!(loaded instanceof Error)) {
      const loadMs = Math.round(performance.now() - started);
      return { chain: loaded, deployment: meta.deployment, history: meta.history, key, head: meta.head, source: 'loaded', timings: { chainMs: loaded.startupMs, deployMs: 0, historyMs: 0, loadMs } };
    }
    if ((loaded as NodeJS.ErrnoException).code === 'EADDRINUSE') throw loaded;
    return buildChain(dir, key, seed, `corrupt (${loaded.message})`, options);
  }
  return buildChain(dir, key, seed, reason, options);
}

async function loadChain(dir: string, meta: ChainMeta, options: DemoSnapshotOptions): Promise<AnvilChain> {
  const chain = await startAnvilChain({ port: options.port, host: options.host, chainId: meta.deployment.chainId, loadState: join(dir, 'chain.json') });
  try {
    const head = (await chain.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: string; hash: string };
    if (Number(head.number) !== meta.head.number || head.hash !== meta.head.hash) {
      throw new Error(`the loaded head is block ${Number(head.number)} ${head.hash}, the snapshot's ${meta.head.number} ${meta.head.hash}`);
    }
    return chain;
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

async function buildChain(dir: string, key: string, seed: number, reason: string, options: DemoSnapshotOptions): Promise<SnapshotChain> {
  const log = options.log ?? (() => {});
  log(`demo snapshot ${reason}: building the demo chain and saving it`, { dir });
  options.onBuild?.();
  const hours = DEFAULT_HISTORY_HOURS;
  const days = DEFAULT_HISTORY_DAYS;
  const nowMs = options.now?.() ?? Date.now();
  let writable = true;
  try {
    mkdirSync(dir, { recursive: true });
    // Anvil writes its dump as it stops: a directory it cannot write to must be known before.
    writeFileSync(join(dir, `.writable.${process.pid}`), '');
    rmSync(join(dir, `.writable.${process.pid}`));
  } catch (error) {
    writable = false;
    log(`demo snapshot directory not writable: the demo runs without saving one (${(error as Error).message})`, { dir });
  }
  const tmp = join(dir, `chain.json.${process.pid}.tmp`);
  // Built on a free port and saved; then loaded on the asked port (Anvil writes its dump as it stops).
  const builder = await startAnvilChain({
    host: options.host,
    initialDate: new Date(nowMs - (days * 24 + 1) * 3600 * 1000),
    ...(writable ? { dumpStateTo: tmp } : { port: options.port }),
  });
  let deployment: DemoDeployment;
  let history: SimulationReport;
  let deployMs: number;
  try {
    const t0 = performance.now();
    deployment = await deployDemo(builder);
    deployMs = Math.round(performance.now() - t0);
    history = await simulateHistory(builder, deployment, { seed, hours, days, endAt: Math.floor(nowMs / 1000) });
  } catch (error) {
    await builder.stop();
    rmSync(tmp, { force: true });
    throw error;
  }
  const headBlock = (await builder.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: string; hash: string; timestamp: string };
  const head = { number: Number(headBlock.number), hash: headBlock.hash, timestamp: Number(headBlock.timestamp) };
  const built = { deployment, history, key, head, source: 'built' as const, rebuilt: reason };
  const timings = { chainMs: builder.startupMs, deployMs, historyMs: history.durationMs };
  if (!writable) return { ...built, chain: builder, timings: { ...timings, loadMs: 0 } };
  await builder.dumpState();
  const meta: ChainMeta = { key, stateBytes: sizeOf(tmp) ?? -1, head, createdAt: new Date().toISOString(), deployment, history };
  try {
    rmSync(join(dir, 'chain.meta.json'), { force: true });
    renameSync(tmp, join(dir, 'chain.json'));
    writeFileSync(join(dir, 'chain.meta.json.tmp'), JSON.stringify(meta));
    renameSync(join(dir, 'chain.meta.json.tmp'), join(dir, 'chain.meta.json'));
  } catch (error) {
    log(`demo snapshot not saved: ${(error as Error).message}`, { dir });
  }
  const t1 = performance.now();
  const chain = await loadChain(dir, meta, options);
  return { ...built, chain, timings: { ...timings, loadMs: Math.round(performance.now() - t1) } };
}

export interface DatabaseSnapshot {
  key: string;
  /** The dumped data directory to start PGlite from; undefined: index from the chain (reason says why). */
  dump: Blob | undefined;
  reason?: string;
  /** Saves PGlite's dump, indexed up to the chain snapshot's head. */
  save(dump: Blob): Promise<void>;
}

/**
 * The database part for the chain snapshot `chain`, keyed on it and on `indexerInputs` (the
 * indexer's configuration as the caller builds it) with the code that indexes.
 */
export function openDatabaseSnapshot(chain: SnapshotChain, indexerInputs: unknown, options: { dir?: string; log?: SnapshotLog } = {}): DatabaseSnapshot {
  const dir = options.dir ?? DEFAULT_SNAPSHOT_DIR;
  const log = options.log ?? (() => {});
  const key = databaseKey(chain.key, indexerInputs);
  const save = async (dump: Blob) => {
    try {
      const bytes = Buffer.from(await dump.arrayBuffer());
      writeFileSync(join(dir, `db.tar.gz.${process.pid}.tmp`), bytes);
      rmSync(join(dir, 'db.meta.json'), { force: true });
      renameSync(join(dir, `db.tar.gz.${process.pid}.tmp`), join(dir, 'db.tar.gz'));
      const meta: DatabaseMeta = { key, chainHead: chain.head.hash, dumpBytes: bytes.length, createdAt: new Date().toISOString() };
      writeFileSync(join(dir, 'db.meta.json.tmp'), JSON.stringify(meta));
      renameSync(join(dir, 'db.meta.json.tmp'), join(dir, 'db.meta.json'));
    } catch (error) {
      log(`demo database snapshot not saved: ${(error as Error).message}`, { dir });
    }
  };
  let tar: Buffer | undefined;
  const problem = (() => {
    let meta: DatabaseMeta;
    try {
      meta = readJson<DatabaseMeta>(join(dir, 'db.meta.json'));
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `corrupt (db.meta.json: ${(error as Error).message})`;
    }
    if (meta.chainHead !== chain.head.hash) return 'made for another chain snapshot';
    if (meta.key !== key) return `stale (key ${meta.key}, now ${key}: the migrations, the indexer's code or its configuration changed)`;
    const size = sizeOf(join(dir, 'db.tar.gz'));
    if (size !== meta.dumpBytes) return `corrupt (db.tar.gz is ${size ?? 'missing'} bytes, ${meta.dumpBytes} written)`;
    // gzip's CRC proves the bytes are the ones dumped (PGlite, handed a corrupt archive, fails
    // with a rejection nobody awaits, which ends the process).
    try {
      tar = gunzipSync(readFileSync(join(dir, 'db.tar.gz')));
    } catch (error) {
      return `corrupt (db.tar.gz: ${(error as Error).message})`;
    }
    return undefined;
  })();
  if (problem) {
    // A rebuilt chain has no database part yet: that needs no line of its own.
    if (chain.source === 'loaded') log(`demo database snapshot ${problem}: re-indexing the demo chain snapshot and saving it`, { dir });
    return { key, dump: undefined, reason: problem, save };
  }
  // The tarball itself: PGlite reads an untyped Blob as an uncompressed tar.
  return { key, dump: new Blob([new Uint8Array(tar!.buffer as ArrayBuffer, tar!.byteOffset, tar!.byteLength)]), save };
}
