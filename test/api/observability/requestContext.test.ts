import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import request from 'supertest';
import { createMetrics } from '../../../src/api/observability/createMetrics.ts';
import { assignRequestId, LOGGED_URL_MAX, loggedUrl, observeRequest } from '../../../src/api/observability/requestContext.ts';

describe('loggedUrl', () => {
  const long = `/tokens?addresses=${Array.from({ length: 100 }, (_, i) => `0x${String(i).padStart(40, '0')}`).join(',')}`;
  const cases: [string, string | undefined, ReturnType<typeof loggedUrl>][] = [
    ['undefined stays undefined', undefined, { url: undefined }],
    ['a short URL is whole', '/tokens?page=2', { url: '/tokens?page=2' }],
    ['a URL at the limit is whole', `/${'a'.repeat(LOGGED_URL_MAX - 1)}`, { url: `/${'a'.repeat(LOGGED_URL_MAX - 1)}` }],
    ['a 100-address URL is cut, with its length', long, { url: `${long.slice(0, LOGGED_URL_MAX)}…`, urlLength: long.length }],
  ];
  for (const [name, input, expected] of cases) it(name, () => assert.deepEqual(loggedUrl(input), expected));
});

describe('access log line', () => {
  it('logs the request id, status and the URL, cut when long', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    const metrics = createMetrics();
    const server = createServer((req, res) => {
      const id = assignRequestId(req, res);
      observeRequest(logger, metrics, req, res, id, () => '/tokens');
      res.end('{}');
    });
    const long = `/tokens?addresses=${'0x'.padEnd(42, 'a').repeat(1).concat(',0x'.padEnd(43, 'b').repeat(99))}`;
    await request(server).get('/tokens?page=2').set('X-Request-Id', 'short-1');
    await request(server).get(long).set('X-Request-Id', 'long-1');
    const byId = (id: string) => lines.find((l) => l.reqId === id);
    assert.deepEqual(
      { url: byId('short-1')?.url, status: byId('short-1')?.status, urlLength: byId('short-1')?.urlLength },
      { url: '/tokens?page=2', status: 200, urlLength: undefined },
    );
    assert.equal(byId('long-1')?.url, `${long.slice(0, LOGGED_URL_MAX)}…`);
    assert.equal(byId('long-1')?.urlLength, long.length);
    assert.ok(long.length > 4000);
  });
});
