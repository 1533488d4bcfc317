// Two real API processes (`npm run serve`) sharing one client rate limit through a real Redis,
// reached through a TCP proxy the test controls: the limit is shared; Redis refused or
// partitioned, both keep answering in bounded time and count per process (said once in the log,
// in /readyz and in /metrics); Redis back, the limit is shared again.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { buildAsNpmDoes, startMain, stopMain, stubChainNode, waitForUrl, type MainProcess } from '../helpers/mainProcess.ts';
import { seedPgliteDir } from '../helpers/pglite.ts';
import { skipWithoutRedis, TEST_REDIS_URL } from '../helpers/services.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy.ts';

type Api = { process: MainProcess; url: string };

/** A client address of its own per phase, so that phases (and parallel runs) never share counters. */
const newClient = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

async function status(api: Api, ip: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${api.url}/tokens?limit=1`, { headers: { 'x-forwarded-for': ip } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

async function metric(api: Api, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${api.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

/** Statuses of requests sent in turn to the given processes within one second window (retried if the window turned). */
async function round(apis: Api[], ip: () => string): Promise<{ statuses: number[]; longestMs: number }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const client = ip();
    const started = performance.now();
    const answers = [];
    for (const api of apis) answers.push(await status(api, client));
    if (performance.now() - started < 700) return { statuses: answers.map((a) => a.status), longestMs: Math.max(...answers.map((a) => a.ms)) };
  }
  throw new Error('could not send a round within one rate-limit window');
}

async function until(what: string, condition: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - started;
}

const logLines = (api: Api, text: string) => api.process.output().split('\n').filter((l) => l.includes(text)).length;

describe('two `npm run serve` processes share one rate limit through Redis', { skip: skipWithoutRedis }, () => {
  let proxy: TcpProxy;
  let node: Server;
  let dataDir: string;
  let a: Api;
  let b: Api;
  before(async () => {
    buildAsNpmDoes();
    const target = new URL(TEST_REDIS_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const chain = await stubChainNode();
    node = chain.server;
    dataDir = mkdtempSync(join(tmpdir(), 'token-api-redis-'));
    const env = (name: string) => ({
      CHAIN_RPC_URL: chain.url,
      PGLITE_DIR: join(dataDir, name),
      PORT: '0',
      HOST: '127.0.0.1',
      TRUST_PROXY: '1',
      RATE_LIMIT_PER_SECOND: '2',
      RATE_LIMIT_PER_MINUTE: '0',
      REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}`,
      REDIS_COMMAND_TIMEOUT_MS: '200',
    });
    // Existing databases (the migrated dump): this suite is about Redis, not a first start.
    await Promise.all(['a', 'b'].map((name) => seedPgliteDir(join(dataDir, name))));
    const [pa, pb] = [startMain('serve', env('a')), startMain('serve', env('b'))];
    a = { process: pa, url: await waitForUrl(pa) };
    b = { process: pb, url: await waitForUrl(pb) };
  });
  after(async () => {
    await Promise.all([a && stopMain(a.process), b && stopMain(b.process)]);
    await proxy?.close();
    node?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stays up with REDIS_URL set and shares 2/s between the processes', async () => {
    assert.equal(await metric(a, 'rate_limit_counter_shared'), 1);
    assert.equal(await metric(b, 'rate_limit_counter_shared'), 1);
    assert.deepEqual((await round([a, b, a], newClient)).statuses, [200, 200, 429], 'the third request within a second is over the shared 2/s');
  });

  for (const cut of ['refuse', 'partition'] as const) {
    it(`Redis cut by ${cut}: both answer in bounded time, counting per process, said once; shared again when Redis is back`, async (t: TestContext) => {
      const warnings = [logLines(a, 'Redis does not answer'), logLines(b, 'Redis does not answer')];
      const cutAt = performance.now();
      await proxy.setMode(cut);
      let longestMs = 0;
      // During the outage each process allows 2/s of its own: a,a,a is 200,200,429 and so is b,b,b.
      for (const api of [a, b]) {
        const r = await round([api, api, api], newClient);
        longestMs = Math.max(longestMs, r.longestMs);
        assert.deepEqual(r.statuses, [200, 200, 429], 'each process limits on its own');
      }
      for (const api of [a, b]) {
        const ready = (await (await fetch(`${api.url}/readyz`)).json()) as { checks: Record<string, string>; details?: Record<string, string>; failed: string[] };
        assert.equal(ready.checks.rateLimitCounter, 'ok');
        assert.match(ready.details?.rateLimitCounter ?? '', /^degraded: Redis does not answer/);
        assert.ok(!ready.failed.includes('rateLimitCounter'), 'a degraded limit does not fail readiness');
        assert.equal(await metric(api, 'rate_limit_counter_shared'), 0);
        // More requests during the outage: still bounded, still answered.
        for (let i = 0; i < 5; i++) longestMs = Math.max(longestMs, (await status(api, newClient())).ms);
      }
      assert.deepEqual([logLines(a, 'Redis does not answer'), logLines(b, 'Redis does not answer')], warnings.map((n) => n + 1), 'one warning per process per outage');
      assert.ok(longestMs < 1000, `longest request during the outage ${Math.round(longestMs)} ms (command timeout 200 ms)`);

      await proxy.setMode('pass');
      const backAt = performance.now();
      const recoveredMs = await until('both share again', async () => (await metric(a, 'rate_limit_counter_shared')) === 1 && (await metric(b, 'rate_limit_counter_shared')) === 1, 10_000);
      assert.deepEqual((await round([a, b, a], newClient)).statuses, [200, 200, 429], 'shared again');
      assert.ok(logLines(a, 'rate limits are shared again') >= 1);
      t.diagnostic(`${cut}: outage ${Math.round(backAt - cutAt)} ms, longest request ${Math.round(longestMs)} ms, shared again ${Math.round(recoveredMs)} ms after Redis answered`);
    });
  }
});
