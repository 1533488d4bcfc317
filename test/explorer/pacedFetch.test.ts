// The page's paced fetch in Node (it uses only fetch, timers and Date): at the API's default limit
// of 2 requests a second, five requests take two seconds and never three in one second; the meta
// tag's "perSecond/perMinute" is read, with the defaults when it is missing or unreadable; 0 is no limit.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { paceFromMeta, pacedFetch, setPace } from '../../src/explorer/page/pacedFetch.ts';

describe('pacedFetch', () => {
  let server: Server;
  let origin: string;
  const arrivals: number[] = [];
  before(async () => {
    server = createServer((_req, res) => {
      arrivals.push(Date.now());
      res.end('{}');
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  const cases: [string | undefined, { perSecond: number; perMinute: number }][] = [
    ['2/60', { perSecond: 2, perMinute: 60 }],
    ['50/3000', { perSecond: 50, perMinute: 3000 }],
    ['0/0', { perSecond: 0, perMinute: 0 }],
    [undefined, { perSecond: 2, perMinute: 60 }],
    ['fast', { perSecond: 2, perMinute: 60 }],
    ['-1/60', { perSecond: 2, perMinute: 60 }],
  ];
  for (const [content, expected] of cases) it(`paceFromMeta(${content})`, () => assert.deepEqual(paceFromMeta(content), expected));

  it('at 2 a second, never three sent within a second', async () => {
    setPace({ perSecond: 2, perMinute: 60 });
    arrivals.length = 0;
    // The times the page hands requests to fetch (what it paces; arrival adds the network's jitter).
    const sends: number[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (...args: Parameters<typeof fetch>) => (sends.push(Date.now()), realFetch(...args));
    const started = Date.now();
    try {
      await Promise.all(Array.from({ length: 5 }, () => pacedFetch(`${origin}/x`)));
    } finally {
      globalThis.fetch = realFetch;
    }
    assert.equal(arrivals.length, 5);
    for (const [i, t] of sends.entries()) assert.ok(sends.slice(i).filter((u) => u < t + 1000).length <= 2, `sends ${sends.map((a) => a - started)}`);
    assert.ok(Date.now() - started >= 2000, 'the fifth request waited for the third second');
  });

  it('with no limit, requests leave at once', async () => {
    setPace({ perSecond: 0, perMinute: 0 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 10 }, () => pacedFetch(`${origin}/x`)));
    assert.ok(Date.now() - started < 900, `${Date.now() - started} ms for 10 unpaced requests`);
  });
});
