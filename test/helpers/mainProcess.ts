// The real entry point as `npm start|serve|index` runs it, for tests that need whole processes:
// the scripts' build step, then node with their flags on the compiled dist/main.js (read from
// package.json, so the tests follow the scripts), and a stand-in chain node for modes that only
// need one to answer.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readNodeScript } from '../../scripts/nodeScript.ts';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

export type MainProcess = { child: ChildProcess; output: () => string; exit: Promise<number | null> };

/**
 * Runs the scripts' build step (the same for every mode); returns its time in ms. Under
 * scripts/run-tests.mjs, which built dist/ once for the run (TEST_RUNTIME_BUILT), only a test
 * that measures `npm start` as a user runs it (`always`) runs it again.
 */
export function buildAsNpmDoes(options: { always?: boolean; asAfterClone?: boolean } = {}): number {
  const started = performance.now();
  if (process.env.TEST_RUNTIME_BUILT === '1' && !options.always) return 0;
  // As on a fresh clone: the build does not find its stamp, so it compiles everything.
  if (options.asAfterClone) rmSync(join(repoRoot, 'dist', '.build-stamp'), { force: true });
  for (const args of readNodeScript(repoRoot, 'start').prepare) {
    const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, `node ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
  }
  return performance.now() - started;
}

/** Starts `npm run <mode>`'s node command (after buildAsNpmDoes) with only PATH and `env`. */
export function startMain(mode: 'start' | 'serve' | 'index', env: Record<string, string>): MainProcess {
  const script = readNodeScript(repoRoot, mode);
  assert.ok(!script.flags.includes('tsx') && script.entry.endsWith('.js'), `runs compiled JavaScript: ${script.entry}`);
  const child = spawn(process.execPath, [...script.flags, script.entry, ...script.args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'info', ...script.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (c) => (text += c));
  child.stderr?.on('data', (c) => (text += c));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exit };
}

/** The URL the process announces when ready. */
export async function waitForUrl(started: MainProcess, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /"url":"(http:\/\/[^"]+)"[^\n]*"token API ready"/.exec(started.output());
    if (match) return match[1]!;
    if (started.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service did not start:\n${started.output()}`);
}

/** Sends SIGTERM (if still running) and waits for the exit. */
export async function stopMain(started: MainProcess): Promise<number | null> {
  if (started.child.exitCode === null) started.child.kill('SIGTERM');
  return started.exit;
}

/**
 * A stand-in chain node for `serve` processes whose test is not about the chain: it answers the
 * head and chain id, no transaction (`null`), and takes `delayMs` on transaction lookups so a
 * request can be in flight when a test needs one.
 */
/** A JSON-RPC node stub; `authorizations` holds the Authorization header of every request (undefined when none). */
export function stubChainNode(delayMs = 0): Promise<{ server: Server; url: string; authorizations: (string | undefined)[] }> {
  const authorizations: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string };
      const results: Record<string, unknown> = { eth_blockNumber: '0x10', eth_chainId: '0x7a69' };
      const delay = call.method === 'eth_getTransactionByHash' ? delayMs : 0;
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: results[call.method] ?? null }));
      }, delay);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, authorizations })),
  );
}
