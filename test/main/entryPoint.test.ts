// The real entry point as a user starts it: configuration errors, serve mode, SIGTERM draining.
// It runs what `npm start` / `npm run serve` run: their build step once, then node with their
// flags on the compiled dist/main.js (read from package.json, so the test follows the scripts).
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readNodeScript } from '../../scripts/nodeScript.ts';

const root = resolve(import.meta.dirname, '..', '..');

const TX_HASH = `0x${'ab'.repeat(32)}`;

/** A node whose transaction lookups take `delayMs`, so a request is in flight when SIGTERM comes. */
function slowNode(delayMs: number): Promise<Server> {
  const server = createServer((req, res) => {
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
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

type Started = { child: ChildProcess; output: () => string; exit: Promise<number | null> };

/** Runs the scripts' build step (the same for both modes) once per test file; returns its time in ms. */
function buildAsNpmDoes(): number {
  const started = performance.now();
  for (const args of readNodeScript(root, 'start').prepare) {
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, `node ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
  }
  return performance.now() - started;
}

/** The standing budget: `npm start` ready within 30 s on 2 cores (README). */
const START_BUDGET_MS = 30_000;

function startMain(mode: 'start' | 'serve', env: Record<string, string>): Started {
  const script = readNodeScript(root, mode);
  assert.ok(!script.flags.includes('tsx') && script.entry.endsWith('.js'), `runs compiled JavaScript: ${script.entry}`);
  const child = spawn(process.execPath, [...script.flags, script.entry, ...script.args], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'info', ...script.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (c) => (text += c));
  child.stderr?.on('data', (c) => (text += c));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exit };
}

async function waitForUrl(started: Started, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /"url":"(http:\/\/[^"]+)"[^\n]*"token API ready"/.exec(started.output());
    if (match) return match[1]!;
    if (started.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service did not start:\n${started.output()}`);
}

describe('entry point', () => {
  let node: Server;
  let nodeUrl: string;
  let dataDir: string;
  let buildMs: number;
  before(async () => {
    buildMs = buildAsNpmDoes();
    node = await slowNode(1500);
    nodeUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'token-api-main-'));
  });
  after(() => {
    node.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start on bad configuration, naming every bad value', async () => {
    const started = startMain('serve', { PORT: 'eighty', DATABASE_URL: 'mysql://db/x', CHAIN_RPC_URL: nodeUrl });
    assert.equal(await started.exit, 1);
    assert.match(started.output(), /PORT="eighty": expected an integer/);
    assert.match(started.output(), /DATABASE_URL: expected a URL with scheme postgres/);
    assert.doesNotMatch(started.output(), /\n\s+at /, 'no stack trace for a configuration error');
  });

  it('says that serve needs CHAIN_RPC_URL', async () => {
    const started = startMain('serve', { PGLITE_DIR: join(dataDir, 'none') });
    assert.equal(await started.exit, 1);
    assert.match(started.output(), /CHAIN_RPC_URL: required by `serve`/);
  });

  it('serves, then on SIGTERM finishes the request in flight, refuses new ones and exits 0', async () => {
    const started = startMain('serve', {
      CHAIN_RPC_URL: nodeUrl,
      PGLITE_DIR: join(dataDir, 'pglite'),
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    const url = await waitForUrl(started);
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    const tokens = await fetch(`${url}/tokens`);
    assert.deepEqual((await tokens.json()).meta, { page: 1, limit: 50, totalItemsCount: 0, pagesCount: 0 });

    const inFlight = fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_getTransactionByHash', params: [TX_HASH] }),
    });
    await new Promise((r) => setTimeout(r, 300));
    started.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await assert.rejects(fetch(`${url}/healthz`), 'no new connections once draining');
    const answer = await inFlight;
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { jsonrpc: '2.0', id: 7, result: null });
    assert.equal(await started.exit, 0);
    assert.match(started.output(), /shutting down/);
  });

  it('start with no chain configured runs the demo, ready within 30 s, and serves indexed data from the first request', async () => {
    const spawnedAt = performance.now();
    const started = startMain('start', { PORT: '0', HOST: '127.0.0.1', DEMO_CHAIN_PORT: '0', DEMO_LIVE_TRADING: 'false' });
    try {
      const url = await waitForUrl(started, 120_000);
      const readyMs = buildMs + performance.now() - spawnedAt;
      assert.ok(readyMs < START_BUDGET_MS, `npm start ready after ${Math.round(readyMs)} ms (build ${Math.round(buildMs)} ms), budget ${START_BUDGET_MS} ms`);
      const list = (await (await fetch(`${url}/tokens?limit=100`)).json()) as {
        data: { symbol: string; currentPrice: number | null; info: { swaps: number } }[];
        meta: { totalItemsCount: number };
      };
      assert.ok(list.meta.totalItemsCount >= 10, `${list.meta.totalItemsCount} tokens`);
      assert.ok(list.data.filter((t) => t.currentPrice !== null).length >= 8, 'priced tokens');
      assert.ok(list.data.some((t) => t.info.swaps > 0), 'swaps counted');
      const rpc = await fetch(`${url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByBlockNumberAndIndex', params: ['latest', '0x0'] }),
      });
      const tx = (await rpc.json()) as { result: { hash: string } | null };
      assert.match(tx.result?.hash ?? '', /^0x[0-9a-f]{64}$/);
    } finally {
      started.child.kill('SIGTERM');
      await started.exit;
    }
  });
});
