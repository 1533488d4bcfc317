// The real entry point as a user starts it: configuration errors, serve mode, SIGTERM draining.
// It runs what `npm start` / `npm run serve` run: their build step once, then node with their
// flags on the compiled dist/main.js (read from package.json, so the test follows the scripts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildAsNpmDoes, startMain, stubChainNode, waitForUrl } from '../helpers/mainProcess.ts';
import { seedPgliteDir } from '../helpers/pglite.ts';

const TX_HASH = `0x${'ab'.repeat(32)}`;

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One HTTP request through `agent` (false: a new connection of its own). */
function send(url: string, agent: Agent | false, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    // Whether the request went out on a kept-alive connection: an error there is a request cut by the server.
    req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(body);
  });
}
const get = (url: string, agent: Agent | false) => send(url, agent);
const post = (url: string, body: string, agent: Agent | false) => send(url, agent, 'POST', body);

describe('entry point', () => {
  let node: Server;
  let nodeUrl: string;
  let authorizations: (string | undefined)[];
  let dataDir: string;
  let buildMs: number;
  before(async () => {
    buildMs = buildAsNpmDoes();
    ({ server: node, url: nodeUrl, authorizations } = await stubChainNode(1500));
    dataDir = mkdtempSync(join(tmpdir(), 'token-api-main-'));
    // The drain tests serve an existing database (the migrated dump): they are not about a first
    // start, which `start` below measures from nothing (an in-memory database and the demo).
    await seedPgliteDir(join(dataDir, 'pglite'));
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

  it('serves through a node whose URL carries credentials, then drains on SIGTERM (one process)', async (t) => {
    // One serve process for both: its start (PGlite's, the service's) costs more than either check.
    const port = new URL(nodeUrl).port;
    const secretUrl = `http://svcuser:s3cr3t-pass@127.0.0.1:${port}/v3/key-abc123def?apikey=q9q9q9`;
    const started = startMain('serve', { CHAIN_RPC_URL: secretUrl, PGLITE_DIR: join(dataDir, 'pglite'), PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0' });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const printedByApi: string[] = [];
    const seenBefore = authorizations.length;
    try {
      const url = await waitForUrl(started);
      await t.test('reaches a node whose URL carries credentials and counts every request to it in /metrics', async () => {
        const ready = await get(`${url}/readyz`, false);
        printedByApi.push(ready.body);
        const lookup = await post(`${url}/rpc`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }), false);
        assert.deepEqual(JSON.parse(lookup.body), { jsonrpc: '2.0', id: 1, result: '0x7a69' });
        assert.ok(authorizations.length > seenBefore);
        assert.ok(authorizations.slice(seenBefore).every((a) => a === `Basic ${Buffer.from('svcuser:s3cr3t-pass').toString('base64')}`), 'every request carries the Basic header the URL implies');
        const metrics = (await get(`${url}/metrics`, false)).body;
        printedByApi.push(metrics);
        assert.match(metrics, /chain_node_requests_total\{client="rpc",method="eth_chainId"\} 1/);
        assert.match(metrics, /chain_node_requests_total\{client="readiness",method="eth_blockNumber"\} [1-9]/);
        assert.match(metrics, /chain_node_budget_rate 25\b/, 'a node given by URL has the default budget of 25 requests/s');
        assert.match(metrics, /^price_histories_held \d+$/m, 'the price histories this process holds');
        assert.match(metrics, /^price_histories_bytes \d+$/m);
      });

      await t.test('on SIGTERM finishes the request in flight with Connection: close, serves requests already sent on idle keep-alive connections, refuses new connections and exits 0', async () => {
        const health = await get(`${url}/healthz`, agent);
        assert.equal(health.status, 200);
        const tokens = await get(`${url}/tokens`, agent);
        assert.deepEqual(JSON.parse(tokens.body).meta, { page: 1, limit: 50, totalItemsCount: 0, pagesCount: 0 });
        // Eight keep-alive connections, idle once these answers are in.
        const warm = await Promise.all(Array.from({ length: 8 }, () => get(`${url}/healthz`, agent)));
        assert.ok(warm.every((r) => r.headers.connection === 'keep-alive'));

        const inFlight = post(`${url}/rpc`, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_getTransactionByHash', params: [TX_HASH] }), agent);
        await new Promise((r) => setTimeout(r, 300));
        const sigterm = performance.now();
        started.child.kill('SIGTERM');
        // Requests a client sent on its idle connections just after SIGTERM (they cross it on the wire).
        await new Promise((r) => setTimeout(r, 10));
        const late = await Promise.all(Array.from({ length: 7 }, () => get(`${url}/healthz`, agent)));
        for (const r of late) {
          assert.equal(r.status, 200, 'a request sent on an idle keep-alive connection is answered');
          assert.equal(r.headers.connection, 'close', 'and told the connection closes');
        }
        await new Promise((r) => setTimeout(r, 600));
        await assert.rejects(get(`${url}/healthz`, false), 'no new connections once draining');
        const answer = await inFlight;
        assert.equal(answer.status, 200);
        assert.equal(answer.headers.connection, 'close', 'the request in flight is answered with Connection: close');
        assert.deepEqual(JSON.parse(answer.body), { jsonrpc: '2.0', id: 7, result: null });
        assert.equal(await started.exit, 0);
        const exitMs = performance.now() - sigterm;
        assert.ok(exitMs < 4000, `exited ${Math.round(exitMs)} ms after SIGTERM (drain limit 10 s; the request in flight took 1.5 s)`);
        assert.match(started.output(), /shutting down/);
      });

      await t.test('never prints the credentials of the node URL (its whole run, its answers)', () => {
        assert.ok(authorizations.slice(seenBefore).every((a) => a === `Basic ${Buffer.from('svcuser:s3cr3t-pass').toString('base64')}`), 'every request of the run carried the Basic header');
        const printed = `${started.output()} ${printedByApi.join(' ')}`;
        assert.match(started.output(), new RegExp(`127\\.0\\.0\\.1:${port}`), 'the node is named by host and port');
        for (const secret of ['s3cr3t', 'key-abc123def', 'q9q9q9', 'svcuser']) assert.ok(!printed.includes(secret), `${secret} was printed`);
      });
    } finally {
      agent.destroy();
      started.child.kill('SIGKILL');
    }
  });

  it('exits within a second of SIGTERM while keep-alive clients keep sending, each told to close after its request', async () => {
    // Idle connections get 1 s for a request already on its way (default 0.5 s): this test's eight
    // clients share one event loop with the other test file, and a client starved past the grace
    // would see its idle connection closed without a last answer. The database directory of the
    // tests before (its cluster made once: initdb in WASM costs seconds of CPU).
    const started = startMain('serve', { CHAIN_RPC_URL: nodeUrl, PGLITE_DIR: join(dataDir, 'pglite'), PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', SHUTDOWN_IDLE_GRACE_MS: '1000' });
    const url = await waitForUrl(started);
    // One agent of one connection per client: with a shared pool a client whose connection was
    // closed takes another's idle one, and that client then has none to send on.
    const agents = Array.from({ length: 8 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const lastAnswers: Answer[] = [];
    const answered = new Set<number>();
    const cut: string[] = [];
    // Eight clients sending back to back on keep-alive connections until the server is gone.
    const client = async (_: unknown, id: number) => {
      const until = performance.now() + 15_000;
      let last: Answer | undefined;
      while (performance.now() < until) {
        try {
          last = await get(`${url}/tokens`, agents[id]!);
          answered.add(id);
        } catch (error) {
          // A new connection to the closed port is refused (or reset if it raced the close); a
          // request on a kept-alive connection must never be cut.
          if ((error as { reusedSocket?: boolean }).reusedSocket) cut.push((error as NodeJS.ErrnoException).code ?? String(error));
          break;
        }
      }
      if (last) lastAnswers.push(last);
    };
    try {
      const clients = Array.from({ length: 8 }, client);
      // Every client has its keep-alive connection and an answer before SIGTERM.
      const deadline = performance.now() + 10_000;
      while (answered.size < 8 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      const sigterm = performance.now();
      started.child.kill('SIGTERM');
      assert.equal(await started.exit, 0);
      const exitMs = performance.now() - sigterm;
      await Promise.all(clients);
      assert.ok(exitMs < 1500, `exited ${Math.round(exitMs)} ms after SIGTERM under keep-alive load (drain limit 10 s)`);
      assert.equal(lastAnswers.length, 8);
      assert.ok(lastAnswers.every((a) => a.status === 200 && a.headers.connection === 'close'), "each client's last answer told it to close the connection");
      assert.deepEqual(cut, [], 'no request on a kept-alive connection was cut');
    } finally {
      for (const a of agents) a.destroy();
      started.child.kill('SIGKILL');
    }
  });

});
