// The wrapper that checks every response against the spec from outside the pipeline: what it
// lets through unchanged, and what it turns into a 500 naming the violation.
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import request from 'supertest';
import { withResponseValidation } from '../../../src/api/validation/withResponseValidation.ts';
import { responseValidator } from '../../helpers/testApp.ts';

const TOKEN = '0x00000000000000000000000000000000000000a1';
const page = { data: [], meta: { page: 1, limit: 50, totalItemsCount: 0, pagesCount: 0 } };
const problemBody = { type: 'urn:token-api:problem:not-found', title: 'Not Found', status: 404, detail: 'No token.' };

type Case = {
  name: string;
  method?: 'get' | 'head';
  url: string;
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Written in pieces through write() before end(). */
  chunked?: boolean;
  violates: RegExp | false;
};

const json = (value: unknown) => JSON.stringify(value);
const cases: Case[] = [
  { name: 'a valid page', url: '/tokens', status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: json(page), violates: false },
  { name: 'a valid page written in pieces', url: '/tokens', status: 200, headers: { 'content-type': 'application/json' }, body: json(page), chunked: true, violates: false },
  { name: 'a gzip page', url: '/tokens', status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(json(page)), violates: false },
  { name: 'a page without meta', url: '/tokens', status: 200, headers: { 'content-type': 'application/json' }, body: json({ data: [] }), violates: /body: .*meta/ },
  { name: 'a page that is not JSON', url: '/tokens?limit=1', status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":', violates: /not JSON/ },
  { name: 'a page as text/html', url: '/tokens', status: 200, headers: { 'content-type': 'text/html' }, body: json(page), violates: /content type "text\/html"/ },
  { name: 'a 404 problem', url: `/tokens/${TOKEN}`, status: 404, headers: { 'content-type': 'application/problem+json' }, body: json(problemBody), violates: false },
  { name: 'a problem without status', url: `/tokens/${TOKEN}`, status: 404, headers: { 'content-type': 'application/problem+json' }, body: json({ type: 'x', title: 'y' }), violates: /status/ },
  { name: 'a 404 sent as JSON', url: `/tokens/${TOKEN}`, status: 404, headers: { 'content-type': 'application/json' }, body: json(problemBody), violates: /content type/ },
  { name: 'a 304 without body', url: '/tokens', status: 304, violates: false },
  { name: 'HEAD: headers only', method: 'head', url: '/tokens', status: 200, headers: { 'content-type': 'application/json' }, violates: false },
  { name: 'HEAD with a wrong content type', method: 'head', url: '/tokens', status: 200, headers: { 'content-type': 'text/plain' }, violates: /content type/ },
  { name: 'supply as text', url: `/supply/total?contractAddress=${TOKEN}`, status: 200, headers: { 'content-type': 'text/plain', age: '3', 'x-supply-block-number': '10' }, body: '12.5', violates: false },
  { name: 'supply with a negative Age', url: `/supply/total?contractAddress=${TOKEN}`, status: 200, headers: { 'content-type': 'text/plain', age: '-1' }, body: '12.5', violates: /header age/ },
  { name: 'a path outside the spec', url: '/healthz', status: 200, headers: { 'content-type': 'text/html' }, body: '<p>ok</p>', violates: false },
];

function fixed(c: Case): RequestListener {
  return (_req, res) => {
    res.statusCode = c.status;
    for (const [name, value] of Object.entries(c.headers ?? {})) res.setHeader(name, value);
    if (c.chunked && c.body) {
      const bytes = Buffer.from(c.body);
      res.write(bytes.subarray(0, 5));
      res.write(bytes.subarray(5).toString());
      res.end();
      return;
    }
    res.end(c.body);
  };
}

describe('response validation from outside the pipeline', () => {
  for (const c of cases) {
    it(`${c.violates ? 'refuses' : 'passes'} ${c.name}`, async () => {
      const handler = withResponseValidation(fixed(c), responseValidator);
      const res = await request(handler)[c.method ?? 'get'](c.url).buffer(true).parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (chunk: Buffer) => chunks.push(chunk));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      if (c.violates) {
        assert.equal(res.status, 500);
        if (c.method !== 'head') {
          const problem = JSON.parse((res.body as Buffer).toString()) as { detail: string };
          assert.match(problem.detail, c.violates);
        }
        assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
        assert.equal(res.headers['content-encoding'], undefined);
      } else {
        assert.equal(res.status, c.status);
        for (const [name, value] of Object.entries(c.headers ?? {})) assert.equal(res.headers[name], value, name);
        // (supertest inflates a gzip body: compare with what was compressed)
        const sent = c.headers?.['content-encoding'] === 'gzip' ? gunzipSync(c.body as Buffer) : c.body;
        if (c.method !== 'head' && sent !== undefined) assert.deepEqual(res.body, Buffer.from(sent), 'the same bytes');
      }
    });
  }

  it('writes the head through writeHead as given (status, message, headers)', async () => {
    const handler = withResponseValidation((_req, res) => {
      res.writeHead(200, 'Fine', { 'content-type': 'application/json' });
      res.end(json(page));
    }, responseValidator);
    const res = await request(handler).get('/tokens');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, page);
  });
});
