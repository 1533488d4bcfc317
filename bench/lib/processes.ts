// Child processes of the benchmark: the chain node (forked, IPC), the service as a user starts
// it (package.json "serve": build src/ to dist/, then `node <flags> dist/main.js serve|start`)
// and the bare node:http baseline server.
// Every wait is bounded in time; every process is stopped by its own pid.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { readNodeScript } from '../../scripts/nodeScript.ts';
import type { ChainInfo, ChainMessage } from './chainProcess.ts';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tsxImport = ['--import', 'tsx'];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------- chain

export type ChainNode = {
  info: ChainInfo;
  pid: number;
  /**
   * Mines one block of demo trades; resolves when it is mined, with the wall time it was mined
   * at and its number of swaps (a block can have none: no pool left its band, no retail trade).
   */
  trade(): Promise<{ block: number; minedAtMs: number; swaps: number }>;
  stop(): Promise<void>;
};

export async function startChainNode(options: { hours: number; seed: number; timeoutMs?: number }): Promise<ChainNode> {
  const child = fork(fileURLToPath(new URL('./chainProcess.ts', import.meta.url)), [], {
    cwd: repoRoot,
    execArgv: tsxImport,
    env: { ...process.env, BENCH_CHAIN_HOURS: String(options.hours), BENCH_SEED: String(options.seed), NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters = new Map<number, (m: Extract<ChainMessage, { type: 'traded' }>) => void>();
  let failure: string | undefined;
  const ready = new Promise<ChainInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('chain node did not start in time')), options.timeoutMs ?? 120_000);
    child.on('message', (raw) => {
      const m = raw as ChainMessage;
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m.info);
      } else if (m.type === 'traded') waiters.get(m.id)?.(m);
      else if (m.type === 'error') {
        failure = m.message;
        clearTimeout(timer);
        reject(new Error(`chain node: ${m.message}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`chain node exited (${code}) ${failure ?? ''}`));
    });
  });
  let info: ChainInfo;
  try {
    info = await ready;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  let nextId = 1;
  return {
    info,
    pid: child.pid ?? 0,
    trade() {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(id);
          reject(new Error(`trade ${id} timed out${failure ? `: ${failure}` : ''}`));
        }, 60_000);
        waiters.set(id, (m) => {
          clearTimeout(timer);
          waiters.delete(id);
          resolve({ block: m.block, minedAtMs: Date.now(), swaps: m.swaps });
        });
        child.send({ type: 'trade', id });
      });
    },
    async stop() {
      if (child.connected) child.disconnect();
      const gone = exited(child);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

// -------------------------------------------------------------------------------- service

/** Settings that would leak from the caller's environment into the service. */
const CONFIG_KEYS = [
  'PORT', 'HOST', 'DATABASE_URL', 'PGLITE_DIR', 'CHAIN_RPC_URL', 'CHAIN_RPC_REQUESTS_PER_SECOND', 'LOG_LEVEL', 'VALIDATE_RESPONSES', 'RATE_LIMIT_PER_SECOND',
  'RATE_LIMIT_PER_MINUTE', 'REDIS_URL', 'CACHE_MAX_AGE_SECONDS', 'DATA_VERSION_POLL_MS', 'RPC_CACHE_SIZE', 'TRUST_PROXY',
  'NETWORK_TOKEN_ADDRESS', 'SUPPLY_CONFIG', 'SUPPLY_CACHE_SECONDS', 'NODE_TEST_CONTEXT', 'NODE_OPTIONS', 'DEMO_SEED',
];

export type ServiceOptions = {
  mode: 'serve' | 'start' | 'index';
  env: Record<string, string>;
  logFile: string;
  /** Adds --cpu-prof --cpu-prof-dir=<dir>. */
  cpuProfDir?: string;
  readyTimeoutMs?: number;
};

export type Service = {
  url: string;
  pid: number;
  /** VmHWM and VmRSS of the process, in kB (Linux /proc). */
  memory(): { peakRssKb: number; rssKb: number } | undefined;
  stop(): Promise<{ peakRssKb: number | undefined; exitCode: number | null }>;
};

function readMemory(pid: number): { peakRssKb: number; rssKb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { peakRssKb: kb('VmHWM'), rssKb: kb('VmRSS') };
  } catch {
    return undefined;
  }
}

let built = false;
/** The script's build step (compiles src/ to dist/), once per bench process. */
function buildService(prepare: string[][]): void {
  if (built) return;
  for (const args of prepare) {
    const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  }
  built = true;
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const port = await freePort();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !CONFIG_KEYS.includes(k)) env[k] = v;
  // The service's own start command (package.json "serve", or "index" for the indexer with its own
  // heap limit: build, then node with its flags and environment on dist/main.js); the bench appends the mode itself.
  const script = readNodeScript(repoRoot, options.mode === 'index' ? 'index' : 'serve');
  buildService(script.prepare);
  Object.assign(env, script.env, { HOST: '127.0.0.1', PORT: String(port), SHUTDOWN_DRAIN_MS: '1000' }, options.env);
  const fd = openSync(options.logFile, 'a');
  const args = [...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []), ...script.flags, script.entry, options.mode];
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  let ready = false;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) {
        ready = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  if (!ready) {
    await stopChild(child, 2000);
    throw new Error(`service did not become healthy (exit ${child.exitCode}); see ${options.logFile}`);
  }
  const pid = child.pid ?? 0;
  let lastMemory: { peakRssKb: number; rssKb: number } | undefined;
  return {
    url,
    pid,
    memory: () => (lastMemory = readMemory(pid) ?? lastMemory),
    async stop() {
      const peak = readMemory(pid) ?? lastMemory;
      await stopChild(child);
      return { peakRssKb: peak?.peakRssKb, exitCode: child.exitCode };
    },
  };
}

// ------------------------------------------------------------------------------- baseline

export type Baseline = { url: string; bytes: number; stop(): Promise<void> };

/** A bare node:http server (own process, like the service) answering `body` to every request. */
export async function startBaselineServer(body: string): Promise<Baseline> {
  const port = await freePort();
  const child = spawn(process.execPath, [fileURLToPath(new URL('./baselineServer.mjs', import.meta.url)), String(port)], {
    cwd: repoRoot,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  child.stdin?.end(body);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      const text = await res.text();
      if (res.ok && text.length === body.length) {
        return { url, bytes: Buffer.byteLength(body), stop: () => stopChild(child, 2000) };
      }
    } catch {
      // not yet
    }
    await sleep(100);
  }
  await stopChild(child, 1000);
  throw new Error('baseline server did not start');
}
