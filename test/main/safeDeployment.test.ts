// Issue 30 on real processes: `npm run serve` and `npm run index` (the compiled entry point) with
// secret-bearing URLs for the chain node, PostgreSQL, Redis and the token list, PostgreSQL and the
// node each behind a TCP proxy the test cuts. Each defect fails its own test on the old code.
// Checked:
//  (1) a node URL with credentials works on every path (readiness, /rpc, the indexer, its token
//      list): every request carries the Basic header it implies (the stand-in node answers 401
//      to any other), and the indexer writes its checkpoint;
//  (2) no log line, nor the banner, holds a credential or key of any configured URL;
//  (3) both start while PostgreSQL refuses: /healthz 200, /readyz 503 naming the database,
//      requests 503 with Retry-After, ready within 2 s (plus slack) of PostgreSQL answering;
//  (4) answers name the failed dependency, never its address;
//  (5) a `latest` lookup sent after the node is back succeeds, though an identical one begun during
//      the partition is still waiting for its timeout;
//  (7) `index` serves /healthz, /readyz and /metrics, logs each outage once at its start and once at
//      its end with the duration, and resumes within 2 s (plus slack) of the dependency answering.
// The old code exited 1 in `migrate` (3), sent the credentials nowhere for the indexer and printed
// the node URL whole (1, 2), answered `database unavailable: connect ECONNREFUSED 127.0.0.1:…` (4),
// shared the stuck call (5), and served nothing on `index`'s PORT (7).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createDatabase, type Database } from '../../src/db/index.ts';
import { startIndexableNode } from '../helpers/indexableNode.ts';
import { buildAsNpmDoes, startMain, stopMain, type MainProcess } from '../helpers/mainProcess.ts';
import { skipWithoutPostgres, skipWithoutRedis, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/services.ts';
import { startTcpProxy } from '../helpers/tcpProxy.ts';

/** What must never be printed: every credential and key-like part of the URLs below. */
const SECRETS = ['svcuser', 's3cr3t-pass', 'key-abc123def', 'q9q9q9q9', 'db-pw-77x', 'r3dis-pass-55', 'tl-s3cret', 'key-zz998877'];
const NODE_AUTH = `Basic ${Buffer.from('svcuser:s3cr3t-pass').toString('base64')}`;
const LIST_AUTH = `Basic ${Buffer.from('tluser:tl-s3cret').toString('base64')}`;
/** The readiness target of the issue, and the slack a loaded 2-core machine gets on top. */
const TARGET_MS = 2000;
const SLACK_MS = 1500;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function send(url: string, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The URL a process announced: the banner's for serve, 'indexer running' for index. */
async function announcedUrl(main: MainProcess, message: string): Promise<string> {
  const pattern = new RegExp(`"url":"(http://[^"]+)"[^\\n]*"${message}"`);
  for (const deadline = performance.now() + 30_000; performance.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const url = pattern.exec(main.output())?.[1];
    if (url) return url;
    if (main.child.exitCode !== null) throw new Error(`exited ${main.child.exitCode} before "${message}":\n${main.output()}`);
  }
  throw new Error(`"${message}" not announced within 30 s:\n${main.output()}`);
}

function assertNoSecrets(text: string, where: string): void {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} holds "${secret}":\n${text.split('\n').filter((l) => l.includes(secret)).join('\n')}`);
}

/** No host:port of the proxies (nor any loopback address or socket error) in a public answer. */
function assertNoAddress(text: string, ports: number[], where: string): void {
  assert.doesNotMatch(text, /127\.0\.0\.1|ECONNREFUSED|localhost/, `${where}: ${text}`);
  for (const port of ports) assert.ok(!text.includes(String(port)), `${where} names port ${port}: ${text}`);
}

const lines = (main: MainProcess, message: string) => main.output().split('\n').filter((l) => l.includes(`"msg":"${message}`));

describe('a deployment that is safe to run (real serve and index processes)', { skip: skipWithoutPostgres || skipWithoutRedis }, () => {
  let admin: pg.Client;
  const closers: (() => Promise<void>)[] = [];
  const started: MainProcess[] = [];
  const schemas: string[] = [];

  before(async () => {
    buildAsNpmDoes();
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
  });
  after(async () => {
    for (const main of started) main.child.kill('SIGKILL');
    await Promise.all(started.map((main) => main.exit));
    // The proxies first: a connection they still hold open would hold a lock the drop waits for.
    for (const close of closers) await close();
    await admin.query(`SET lock_timeout = '5s'`);
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin?.end();
  });

  /** A schema of its own; migrated (as an existing deployment's is) when asked. */
  async function newSchema(prefix: string, migrated: boolean): Promise<string> {
    const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
    schemas.push(schema);
    if (migrated) {
      const db: Database = await createDatabase({ databaseUrl: TEST_DATABASE_URL, schema });
      await db.close();
    } else {
      await admin.query(`CREATE SCHEMA ${schema}`);
    }
    return schema;
  }

  /**
   * A node, a proxy in front of it and one in front of PostgreSQL, of the test's own: what one
   * test cuts or counts is its own. (Run at once, the five processes' start-ups on 2 shared cores
   * took longer than running them one after another.)
   */
  async function newWorld() {
    const node = await startIndexableNode({ head: 20, requireAuthorization: [NODE_AUTH, LIST_AUTH] });
    const nodeProxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(node.url).port) });
    const target = new URL(TEST_DATABASE_URL!);
    const pgProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    closers.push(() => nodeProxy.close(), () => pgProxy.close(), () => node.close());
    function env(schema: string): Record<string, string> {
      const database = new URL(TEST_DATABASE_URL!);
      database.username = 'postgres';
      database.password = 'db-pw-77x'; // PostgreSQL trusts the test's connections: the password is never asked
      database.hostname = '127.0.0.1';
      database.port = String(pgProxy.port);
      database.searchParams.set('options', `-c search_path=${schema}`);
      const redis = new URL(TEST_REDIS_URL!);
      redis.password = 'r3dis-pass-55'; // Redis without a password: ioredis goes on without one
      return {
        CHAIN_RPC_URL: `http://svcuser:s3cr3t-pass@127.0.0.1:${nodeProxy.port}/v3/key-abc123def?apikey=q9q9q9q9`,
        DATABASE_URL: database.toString(),
        REDIS_URL: redis.toString(),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: '', // info, and the banner printed as on a terminal
        RATE_LIMIT_PER_SECOND: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        DB_CONNECT_TIMEOUT_MS: '1000',
        DB_QUERY_TIMEOUT_MS: '2000',
      };
    }
    return { node, nodeProxy, pgProxy, env };
  }

  it('serve: starts while PostgreSQL refuses, answers 503 naming the database, is ready within 2 s of it answering; nothing secret printed', async () => {
    const { node, nodeProxy, pgProxy, env } = await newWorld();
    const schema = await newSchema('safe_serve', true);
    await admin.query(`INSERT INTO ${schema}.indexer_checkpoint (id, chain_id, block_number, block_hash, block_time) VALUES (1, 59144, 20, $1, now())`, [`0x${'14'.padStart(64, 'a')}`]);
    await pgProxy.setMode('refuse');
    const seenBefore = node.authorizations.length;
    const main = startMain('serve', env(schema));
    started.push(main);
    const url = await announcedUrl(main, 'token API ready');

    // (3) up while PostgreSQL refuses
    assert.equal((await send(`${url}/healthz`)).status, 200);
    const notReady = await send(`${url}/readyz`);
    assert.equal(notReady.status, 503);
    const readiness = JSON.parse(notReady.body) as { failed: string[]; checks: Record<string, string> };
    assert.ok(readiness.failed.includes('database'), `names the database: ${notReady.body}`);
    assert.match(readiness.checks.database!, /the database does not answer/i);
    assert.equal(readiness.checks.chainNode, 'ok');
    assertNoAddress(notReady.body, [pgProxy.port, nodeProxy.port], '/readyz');
    for (const path of ['/tokens', `/tokens/0x${'11'.repeat(20)}`, `/prices/0x${'11'.repeat(20)}/candles?interval=1h`]) {
      const answer = await send(`${url}${path}`);
      assert.equal(answer.status, 503, `${path}: ${answer.body}`);
      assert.match(String(answer.headers['retry-after']), /^\d+$/, `${path}: Retry-After`);
      assert.match(JSON.parse(answer.body).detail, /database/i, `${path} names the database`);
      assertNoAddress(answer.body, [pgProxy.port, nodeProxy.port], path); // (4)
    }

    // (3) ready within 2 s of PostgreSQL answering
    await pgProxy.setMode('pass');
    const answering = performance.now();
    await until('ready after PostgreSQL answers', TARGET_MS + SLACK_MS + 3000, async () => ((await send(`${url}/readyz`)).status === 200 ? true : undefined));
    const readyMs = performance.now() - answering;
    assert.equal((await send(`${url}/tokens`)).status, 200);
    assert.ok(readyMs <= TARGET_MS + SLACK_MS, `ready ${Math.round(readyMs)} ms after PostgreSQL answered (target ${TARGET_MS} ms)`);
    process.stdout.write(`# serve: ready ${Math.round(readyMs)} ms after PostgreSQL answered\n`);

    // (1) every request to the node carried the credentials as a Basic header
    const sent = node.authorizations.slice(seenBefore);
    assert.ok(sent.length >= 3, `${sent.length} requests reached the node`);
    assert.ok(sent.every((a) => a === NODE_AUTH), 'every request to the node carries the Basic header its URL implies');

    assert.equal(await stopMain(main), 0);
    // (2) every line of the run: JSON log lines and the banner
    assert.match(main.output(), /JSON-RPC: .*\(node: http:\/\/127\.0\.0\.1:\d+\)/, 'the banner names the node by scheme, host and port');
    assert.equal(lines(main, 'database outage began').length, 1, 'the start-up outage logged once when it began');
    assert.equal(lines(main, 'database outage ended').length, 1, 'and once when it ended');
    assertNoSecrets(main.output(), 'serve output');
  });

  it('index: starts while PostgreSQL refuses, serves /healthz, /readyz and /metrics, logs each outage once at each end, resumes within 2 s; nothing secret printed', async () => {
    const { node, nodeProxy, pgProxy, env } = await newWorld();
    const schema = await newSchema('safe_index', false);
    await pgProxy.setMode('refuse');
    node.head = 20;
    const seenBefore = node.authorizations.length;
    const main = startMain('index', {
      ...env(schema),
      INDEXER_CHAIN_ID: '59144',
      INDEXER_START_BLOCK: '10',
      INDEXER_POLL_INTERVAL_MS: '100',
      // A token list URL with credentials and a key in its path and query: fetched with the Basic
      // header it implies, none of it printed (checked at the end with the outages).
      INDEXER_TOKEN_LIST: `http://tluser:tl-s3cret@127.0.0.1:${nodeProxy.port}/lists/key-zz998877.json?sig=q9q9q9q9`,
      CHAIN_RPC_MAX_RETRIES: '2',
      CHAIN_RPC_TIMEOUT_MS: '1000',
    });
    started.push(main);
    const url = await announcedUrl(main, 'indexer running');

    // (7) and (3): its status port while PostgreSQL refuses
    assert.equal((await send(`${url}/healthz`)).status, 200);
    const down = await send(`${url}/readyz`);
    assert.equal(down.status, 503);
    const readiness = JSON.parse(down.body) as { failed: string[] };
    assert.ok(readiness.failed.includes('database'), down.body);
    assertNoAddress(down.body, [pgProxy.port, nodeProxy.port], 'index /readyz');
    const metrics = await send(`${url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /indexer_writer_role|chain_node_requests_total|process_cpu/);
    assert.equal((await send(`${url}/readyz`, 'DELETE')).status, 405);
    await until('the database outage logged', 5000, async () => (lines(main, 'database outage began').length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 700)); // more failed steps: still one line

    await pgProxy.setMode('pass');
    const dbBack = performance.now();
    const checkpointAt = async (block: number) =>
      (await admin.query<{ n: string }>(`SELECT block_number::text AS n FROM ${schema}.indexer_checkpoint`).catch(() => ({ rows: [] as { n: string }[] }))).rows[0]?.n === String(block) ? true : undefined;
    await until('the checkpoint written after PostgreSQL answers', TARGET_MS + SLACK_MS + 3000, () => checkpointAt(20));
    const dbResumeMs = performance.now() - dbBack;
    await until('ready', 5000, async () => ((await send(`${url}/readyz`)).status === 200 ? true : undefined));
    const ready = JSON.parse((await send(`${url}/readyz`)).body) as { details?: Record<string, string> };
    assert.match(ready.details?.indexer ?? '', /leader: checkpoint 0 blocks/, 'role and checkpoint lag');

    // The node refuses for a while, the chain grows, the node answers again.
    await nodeProxy.setMode('refuse');
    node.head = 30;
    await until('the node outage logged', 8000, async () => (lines(main, 'chain node outage began').length > 0 ? true : undefined));
    assert.equal((await send(`${url}/readyz`)).status, 503, 'not ready while the node is out');
    await new Promise((r) => setTimeout(r, 700));
    await nodeProxy.setMode('pass');
    const nodeBack = performance.now();
    await until('the new blocks indexed after the node answers', TARGET_MS + SLACK_MS + 3000, () => checkpointAt(30));
    const nodeResumeMs = performance.now() - nodeBack;
    // A partition of the node: logged when the first request to it times out (CHAIN_RPC_TIMEOUT_MS,
    // 1 s here), not after the step's retries; the request in flight at the heal waits out its timeout.
    await nodeProxy.setMode('partition');
    node.head = 35;
    await until('the partition logged', 8000, async () => (lines(main, 'chain node outage began').length > 1 ? true : undefined));
    await nodeProxy.setMode('pass');
    const partitionHealed = performance.now();
    await until('the new blocks indexed after the partition heals', 1000 + TARGET_MS + SLACK_MS + 3000, () => checkpointAt(35));
    const partitionResumeMs = performance.now() - partitionHealed;
    assert.ok(partitionResumeMs <= 1000 + TARGET_MS + SLACK_MS, `resumed ${Math.round(partitionResumeMs)} ms after the partition healed`);
    assert.ok(dbResumeMs <= TARGET_MS + SLACK_MS, `resumed ${Math.round(dbResumeMs)} ms after PostgreSQL answered`);
    assert.ok(nodeResumeMs <= TARGET_MS + SLACK_MS, `resumed ${Math.round(nodeResumeMs)} ms after the node answered`);
    process.stdout.write(`# index: checkpoint written ${Math.round(dbResumeMs)} ms after PostgreSQL answered, new blocks ${Math.round(nodeResumeMs)} ms after the node's refusal ended and ${Math.round(partitionResumeMs)} ms after its partition healed\n`);

    assert.equal(await stopMain(main), 0);
    // One database outage, two of the node (refused, then partitioned): one line at each end of each.
    for (const [dependency, outages] of [['database', 1], ['chain node', 2]] as const) {
      assert.equal(lines(main, `${dependency} outage began`).length, outages, `${dependency}: one line when each outage began`);
      const ended = lines(main, `${dependency} outage ended`);
      assert.equal(ended.length, outages, `${dependency}: one line when each ended`);
      for (const line of ended) assert.match(line, /"outageMs":\d+/, 'with its duration');
    }
    // (1) the indexer's requests, its token list's included, carried the credentials of their URL
    const sent = node.authorizations.slice(seenBefore);
    assert.ok(sent.includes(LIST_AUTH), 'the token list was fetched with its credentials');
    assert.ok(sent.filter((a) => a !== LIST_AUTH).every((a) => a === NODE_AUTH), 'every request to the node carried its Basic header');
    assertNoSecrets(main.output(), 'index output'); // (2)
  });

  it('serve: a `latest` lookup sent after a node partition heals succeeds, though one begun in the partition is still waiting', async () => {
    const { node, nodeProxy, pgProxy, env } = await newWorld();
    await pgProxy.setMode('pass');
    const main = startMain('serve', { ...env(await newSchema('safe_rpc', true)), RPC_UPSTREAM_TIMEOUT_MS: '1500' });
    started.push(main);
    const url = await announcedUrl(main, 'token API ready');
    // (5) a `latest` lookup begun during a partition of the node, and the same one after it healed
    const lookup = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByBlockNumberAndIndex', params: ['latest', '0x0'] });
    assert.equal((await send(`${url}/rpc`, 'POST', lookup)).status, 200, 'a lookup before the partition (its connection is kept alive)');
    await nodeProxy.setMode('partition');
    const droppedBefore = nodeProxy.dropped;
    const sentAt = performance.now();
    const stuck = send(`${url}/rpc`, 'POST', lookup);
    // Healed once the lookup's request to the node is lost in the partition (on a loaded machine
    // the serve process may not have sent it yet after a fixed wait), and no sooner than 400 ms
    // after it was sent: past the 250 ms in which an identical lookup would share its call.
    await until('the lookup reached the partition', 5000, async () => (nodeProxy.dropped > droppedBefore ? true : undefined));
    await new Promise((r) => setTimeout(r, Math.max(0, 400 - (performance.now() - sentAt))));
    await nodeProxy.setMode('pass');
    const healed = performance.now();
    const afterHeal = await send(`${url}/rpc`, 'POST', lookup);
    const lookupMs = performance.now() - healed;
    assert.deepEqual(JSON.parse(afterHeal.body), { jsonrpc: '2.0', id: 1, result: null }, `the first lookup after the node is back: ${afterHeal.body}`);
    assert.ok(lookupMs < 1500, `answered ${Math.round(lookupMs)} ms after the heal`);
    assert.equal(JSON.parse((await stuck).body).error?.code, -32050, 'the call begun in the partition timed out alone');

    process.stdout.write(`# serve: latest lookup answered ${Math.round(lookupMs)} ms after the node's partition healed\n`);
    assert.equal(await stopMain(main), 0);
    assertNoSecrets(main.output(), 'serve output');
  });

  it('a start-up error that quotes a configured URL (an unreachable token list) prints no secret of it', async () => {
    const { node, nodeProxy, pgProxy, env } = await newWorld();
    await pgProxy.setMode('pass');
    const main = startMain('index', {
      ...env(await newSchema('safe_error', true)),
      INDEXER_CHAIN_ID: '59144',
      INDEXER_TOKEN_LIST: `http://tluser:tl-s3cret@127.0.0.1:1/lists/key-zz998877.json`,
    });
    started.push(main);
    assert.equal(await main.exit, 1);
    assert.match(main.output(), /cannot read token list http:\/\/127\.0\.0\.1:1\b/);
    assertNoSecrets(main.output(), 'the error');
  });
});
