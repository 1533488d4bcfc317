// The demo network on Anvil (npm package @foundry-rs/anvil, its platform binary run as a child
// process): a node that dumps a chain with its whole block history and the states at old blocks
// (--dump-state with --preserve-historical-states) and loads it back in about a second
// (--load-state), which is what the demo snapshot (snapshot.ts) is made of. Same accounts (the
// test mnemonic), chain id and mining modes as the Hardhat chain (chain.ts); the rest of the
// service talks to it over HTTP JSON-RPC as to any node.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ChainError, createChainClient, type RpcCall } from '../chain/index.ts';
import type { DemoChain, Eip1193Provider } from './chain.ts';

export interface AnvilChainOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Default 31337. */
  chainId?: number;
  /** Genesis timestamp (ignored when `loadState` is given). Default: now. */
  initialDate?: Date;
  /** A state file written by `dumpStateTo` of an earlier chain: its blocks, transactions and old states. */
  loadState?: string;
  /** Where the chain's state (with every block's state, for reads at old blocks) is written by dumpState(). */
  dumpStateTo?: string;
}

export interface AnvilChain extends DemoChain {
  node: 'anvil';
  /** Anvil's version line, e.g. "1.7.1". */
  version: string;
  /** Stops the node after it wrote its state to `dumpStateTo` (needs that option). */
  dumpState(): Promise<void>;
}

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-amd64',
};

const require = createRequire(import.meta.url);

/** The anvil binary of this platform, installed by npm as an optional dependency of @foundry-rs/anvil. */
export function anvilBinary(): { path: string; version: string } {
  const suffix = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!suffix) throw new Error(`@foundry-rs/anvil has no binary for ${process.platform}-${process.arch}`);
  const manifest = require.resolve(`@foundry-rs/anvil-${suffix}/package.json`);
  const { version } = require(manifest) as { version: string };
  return { path: join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil'), version };
}

export async function startAnvilChain(options: AnvilChainOptions = {}): Promise<AnvilChain> {
  const started = performance.now();
  const chainId = options.chainId ?? 31337;
  const host = options.host ?? '127.0.0.1';
  const binary = anvilBinary();
  const args = [
    '--host', host, '--port', String(options.port ?? 0), '--chain-id', String(chainId),
    '--accounts', '20', '--balance', '1000000',
    // Transactions queued while automine is off are mined in send order, as on the Hardhat chain.
    '--order', 'fifo',
    // A block's gas limit that holds every batch the demo queues (its deployment's first batch
    // uses about 25M): Anvil skips a transaction that does not fit and drops the sender's later
    // ones, where Hardhat carries them to the next block.
    '--gas-limit', '100000000',
  ];
  if (options.loadState) args.push('--load-state', options.loadState);
  else if (options.initialDate) args.push('--timestamp', String(Math.floor(options.initialDate.getTime() / 1000)));
  // The state at every block is kept in the dump: the indexer and the checks read old blocks.
  if (options.dumpStateTo) args.push('--dump-state', options.dumpStateTo, '--preserve-historical-states');
  const child = spawn(binary.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // The node goes with this process, however it ends (short of SIGKILL).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', killOnExit);
      resolve(code);
    }),
  );
  let url: string;
  try {
    url = await listeningUrl(child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const provider = httpProvider(url);
  await provider.request({ method: 'eth_chainId' });
  let stopped = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    provider.close();
  };
  return {
    node: 'anvil',
    version: binary.version,
    url,
    chainId,
    provider,
    startupMs: Math.round(performance.now() - started),
    // SIGTERM makes anvil write --dump-state; SIGKILL does not.
    stop: () => stop(options.dumpStateTo ? 'SIGKILL' : 'SIGTERM'),
    async dumpState() {
      if (!options.dumpStateTo) throw new Error('dumpState needs dumpStateTo');
      await stop('SIGTERM');
    },
  };
}

/** The address anvil prints once it listens ("Listening on 127.0.0.1:PORT"). */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Listening on (\S+):(\d+)/.exec(out);
      if (!match) return;
      child.stdout?.off('data', onData);
      // Keep draining its output: a full pipe would block the node.
      child.stdout?.resume();
      resolve(`http://${match[1]}:${match[2]}`);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const error = new Error(`anvil exited (${code}) before it listened: ${out.replace(/\s+/g, ' ').trim().slice(-500)}`);
      reject(/address already in use/i.test(out) ? Object.assign(error, { code: 'EADDRINUSE' }) : error);
    });
  });
}

/**
 * EIP-1193 over the service's node client (node:http keep-alive connections, JSON-RPC batches).
 * Requests made in the same tick go as one batch: the demo client asks every receipt of a block
 * at once, and a request's HTTP round costs this process more CPU than the node's work on it.
 * Nothing is retried: a transaction sent twice would be a second transaction.
 */
function httpProvider(url: string): Eip1193Provider & { close(): void } {
  type Pending = { call: RpcCall; resolve(v: unknown): void; reject(e: unknown): void };
  // A local node: its slowest answer (a large block mined) is seconds, never a minute.
  const client = createChainClient({ url, maxRetries: 0, timeoutMs: 60_000 });
  let queued: Pending[] = [];
  const flush = async () => {
    const calls = queued;
    queued = [];
    if (calls.length === 1) {
      const [only] = calls;
      return client.request(only!.call.method, only!.call.params).then(only!.resolve, only!.reject);
    }
    try {
      const answers = await client.batch(calls.map((c) => c.call));
      calls.forEach((c, i) => (answers[i] instanceof ChainError ? c.reject(answers[i]) : c.resolve(answers[i])));
    } catch (error) {
      for (const c of calls) c.reject(error);
    }
  };
  return {
    request({ method, params }) {
      return new Promise((resolve, reject) => {
        if (queued.length === 0) queueMicrotask(() => void flush());
        queued.push({ call: { method, params: (params ?? []) as unknown[] }, resolve, reject });
      });
    },
    close: () => client.destroy(),
  };
}
