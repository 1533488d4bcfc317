// The Redis-shared rate-limit counter against a real Redis behind a TCP proxy the test controls:
// shared counting, the fall-back to counting per process when Redis refuses or is partitioned,
// bounded waits while it does, and the return to shared counting when Redis answers again.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createSharedHitCounter, countingNote, type CounterMode, type SharedHitCounter } from '../../../src/api/limits/createSharedHitCounter.ts';
import { createLocalHitCounter } from '../../../src/api/limits/createLocalHitCounter.ts';
import { skipWithoutRedis, TEST_REDIS_URL } from '../../helpers/services.ts';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcpProxy.ts';

const minute = [{ name: 'per-minute', windowMs: 60_000 }];

async function until(what: string, condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - started;
}

describe('createLocalHitCounter', () => {
  it('counts fixed windows per key and starts a new window once one ends', async () => {
    let t = 1_000;
    const counter = createLocalHitCounter({ now: () => t });
    const windows = [{ name: 's', windowMs: 1000 }, { name: 'm', windowMs: 60_000 }];
    assert.deepEqual(await counter.hit('a', windows), [{ hits: 1, resetMs: 1000 }, { hits: 1, resetMs: 60_000 }]);
    t += 400;
    assert.deepEqual(await counter.hit('a', windows), [{ hits: 2, resetMs: 600 }, { hits: 2, resetMs: 59_600 }]);
    assert.deepEqual(await counter.hit('b', windows), [{ hits: 1, resetMs: 1000 }, { hits: 1, resetMs: 60_000 }]);
    t += 600;
    assert.deepEqual(await counter.hit('a', windows), [{ hits: 1, resetMs: 1000 }, { hits: 3, resetMs: 59_000 }]);
    counter.stop?.();
  });
});

describe('createSharedHitCounter', { skip: skipWithoutRedis }, () => {
  let proxy: TcpProxy;
  let a: SharedHitCounter;
  let b: SharedHitCounter;
  const changes: [string, CounterMode][] = [];
  before(async () => {
    const target = new URL(TEST_REDIS_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const url = `redis://127.0.0.1:${proxy.port}${target.pathname}`;
    const options = { url, commandTimeoutMs: 200, probeMs: 200, maxBackoffMs: 300 };
    a = createSharedHitCounter({ ...options, onModeChange: (mode) => changes.push(['a', mode]) });
    b = createSharedHitCounter({ ...options, onModeChange: (mode) => changes.push(['b', mode]) });
    assert.ok(await a.ready(5000), 'a reaches Redis');
    assert.ok(await b.ready(5000), 'b reaches Redis');
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await proxy?.close();
  });
  beforeEach(() => {
    changes.length = 0;
  });

  it('counts in Redis: two processes see one count', async () => {
    const key = randomBytes(6).toString('hex');
    assert.deepEqual((await a.hit(key, minute)).map((c) => c.hits), [1]);
    assert.deepEqual((await b.hit(key, minute)).map((c) => c.hits), [2]);
    assert.deepEqual((await a.hit(key, minute)).map((c) => c.hits), [3]);
    assert.equal(countingNote(a.status()), undefined);
  });

  for (const cut of ['refuse', 'partition'] as const) {
    it(`${cut}: counts per process at once, never waits longer than the command timeout, tells once, and shares again when Redis answers`, async () => {
      const key = randomBytes(6).toString('hex');
      await a.hit(key, minute);
      await b.hit(key, minute);
      await proxy.setMode(cut);
      const waits: number[] = [];
      const counts: number[] = [];
      for (let i = 0; i < 6; i++) {
        const started = performance.now();
        counts.push((await (i % 2 ? b : a).hit(key, minute))[0]!.hits);
        waits.push(performance.now() - started);
      }
      assert.ok(Math.max(...waits) < 600, `longest hit ${Math.round(Math.max(...waits))} ms (command timeout 200 ms)`);
      assert.deepEqual(counts, [1, 1, 2, 2, 3, 3], 'each process counts on its own from the cut on');
      assert.equal(a.status().mode, 'local');
      assert.match(countingNote(a.status()) ?? '', /^degraded: Redis does not answer/);
      // Issue 30 (4): /readyz shows this note; Redis is named, its address never is.
      assert.doesNotMatch(countingNote(a.status()) ?? '', new RegExp(`127\\.0\\.0\\.1|:${proxy.port}\\b`));
      assert.deepEqual(changes.sort(), [['a', 'local'], ['b', 'local']], 'told once per process');

      await proxy.setMode('pass');
      const recoveredIn = await until('both share again', () => a.status().mode === 'shared' && b.status().mode === 'shared', 5000);
      assert.ok(recoveredIn < 3000, `shared again ${Math.round(recoveredIn)} ms after Redis answers`);
      const again = randomBytes(6).toString('hex');
      assert.deepEqual([(await a.hit(again, minute))[0]!.hits, (await b.hit(again, minute))[0]!.hits], [1, 2]);
      assert.deepEqual(changes.filter(([, m]) => m === 'shared').length, 2);
    });
  }

  it('does not report an outage when it is stopped', async () => {
    const target = new URL(TEST_REDIS_URL!);
    const told: CounterMode[] = [];
    const own = createSharedHitCounter({ url: `redis://127.0.0.1:${proxy.port}${target.pathname}`, onModeChange: (mode) => told.push(mode) });
    assert.ok(await own.ready(5000));
    await own.stop();
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(told, ['shared'], 'no fall-back reported for its own shutdown');
  });

  it('starts counting locally when Redis is down at start, and shares once it answers', async () => {
    await proxy.setMode('refuse');
    const target = new URL(TEST_REDIS_URL!);
    const late = createSharedHitCounter({ url: `redis://127.0.0.1:${proxy.port}${target.pathname}`, commandTimeoutMs: 200, probeMs: 200, maxBackoffMs: 300 });
    try {
      const started = performance.now();
      assert.equal(await late.ready(500), false);
      assert.ok(performance.now() - started < 1000);
      assert.deepEqual((await late.hit(randomBytes(6).toString('hex'), minute)).map((c) => c.hits), [1]);
      await proxy.setMode('pass');
      await until('shares after Redis comes up', () => late.status().mode === 'shared', 5000);
    } finally {
      await late.stop();
    }
  });
});
