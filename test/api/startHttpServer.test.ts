// The HTTP server's own answers: requests Node refuses before any handler runs are problem+json.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startHttpServer, type HttpServer } from '../../src/api/startHttpServer.ts';

/** Sends raw bytes and returns everything the server answered before closing. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c) => (text += c));
    socket.on('end', () => resolve(text));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

function parse(answer: string): { status: number; headers: string; body: { type: string; status: number; title: string; detail: string } } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe('startHttpServer', () => {
  let server: HttpServer;
  let port: number;
  before(async () => {
    server = await startHttpServer((_req, res) => res.end('ok'), { port: 0, host: '127.0.0.1', headersTimeoutMs: 500, requestTimeoutMs: 600 });
    port = Number(new URL(server.url).port);
  });
  after(() => server.close());

  const cases: [string, string, number, string][] = [
    ['headers larger than 16 KiB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'header-fields-too-large'],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'bad-request'],
    ['an invalid header line', 'GET / HTTP/1.1\r\nHost x\r\n\r\n', 400, 'bad-request'],
    ['headers that never end', 'GET / HTTP/1.1\r\nHost: x\r\n', 408, 'request-timeout'],
    // Issue 30: an over-long URL is 414, not 431 (the request line counts towards Node's header limit).
    ['a URL longer than Node\'s header limit', `GET /tokens?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414, 'uri-too-long'],
    ['a URL longer than the limit (8 KiB) within the header limit', `GET /tokens?q=${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 414, 'uri-too-long'],
  ];
  for (const [name, bytes, status, kind] of cases) {
    it(`answers ${name} with ${status} problem+json and closes`, async () => {
      const answer = parse(await raw(port, bytes));
      assert.equal(answer.status, status);
      assert.match(answer.headers, /content-type: application\/problem\+json/);
      if (status !== 414 || bytes.length > 16_384) assert.match(answer.headers, /connection: close/);
      assert.equal(answer.body.type, `urn:token-api:problem:${kind}`);
      assert.equal(answer.body.status, status);
      assert.ok(answer.body.title && answer.body.detail);
    });
  }

  it('still serves afterwards', async () => {
    assert.match(await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 200 [\s\S]*\r\n\r\nok$/);
  });
});
