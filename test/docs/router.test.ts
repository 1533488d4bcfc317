// The docs router: pages with their CSP, raw specs with their content types, lazy build when
// no (or a stale) prebuilt site exists, and mounting in the real app before its validator.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { parse } from 'yaml';
import { createDocsRouter } from '../../src/docs/index.ts';
import { defaultSpecDir } from '../../src/docs/docsPaths.ts';
import type { Database } from '../../src/db/index.ts';
import { testApp } from '../helpers/testApp.ts';
import { buildDocsOnce, removeBuiltDocs } from './buildDocsOnce.ts';
import { specFacts } from './specFacts.ts';

const facts = specFacts();
const appWith = (router: express.Router) => express().use(router);

describe('docs router', () => {
  let docsDir: string;
  let scratch: string;
  before(async () => {
    docsDir = (await buildDocsOnce()).outDir;
    scratch = await mkdtemp(join(tmpdir(), 'docs-router-'));
  });
  after(async () => {
    await removeBuiltDocs();
    await rm(scratch, { recursive: true, force: true });
  });

  it('serves /openapi.yaml as application/yaml, /openapi.json converted, /openrpc.json as is', async () => {
    const app = appWith(createDocsRouter({ docsDir }));
    const yamlRes = await request(app).get('/openapi.yaml');
    assert.equal(yamlRes.status, 200);
    assert.match(yamlRes.headers['content-type'] ?? '', /^application\/yaml/);
    const yamlDoc = parse(yamlRes.text) as { openapi: string };
    assert.equal(yamlRes.text, await readFile(join(defaultSpecDir, 'openapi.yaml'), 'utf8'));

    const jsonRes = await request(app).get('/openapi.json');
    assert.equal(jsonRes.status, 200);
    assert.match(jsonRes.headers['content-type'] ?? '', /^application\/json/);
    assert.deepEqual(JSON.parse(jsonRes.text), yamlDoc);

    const rpcRes = await request(app).get('/openrpc.json');
    assert.equal(rpcRes.status, 200);
    assert.match(rpcRes.headers['content-type'] ?? '', /^application\/json/);
    assert.deepEqual((JSON.parse(rpcRes.text) as { methods: Array<{ name: string }> }).methods.map((m) => m.name), facts.methodNames);
  });

  it('redirects /docs to /docs/ and serves the landing page there', async () => {
    const app = appWith(createDocsRouter({ docsDir }));
    const redirect = await request(app).get('/docs?x=1');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, '/docs/?x=1');
    const res = await request(app).get('/docs/');
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type'] ?? '', /^text\/html/);
    for (const id of facts.operationIds) assert.ok(res.text.includes(id), `landing lacks ${id}`);
  });

  it('serves the pages with a CSP allowing exactly their inline scripts', async () => {
    const app = appWith(createDocsRouter({ docsDir }));
    const rest = await request(app).get('/docs/rest.html');
    assert.equal(rest.status, 200);
    const csp = rest.headers['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/);
    const scripts = [...rest.text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    assert.ok(scripts.length > 0);
    for (const body of scripts) {
      assert.ok(csp.includes(`'sha256-${createHash('sha256').update(body).digest('base64')}'`), 'an inline script is not allowed');
    }
    const rpc = await request(app).get('/docs/rpc.html');
    assert.equal(rpc.status, 200);
    assert.match(rpc.headers['content-security-policy'] ?? '', /script-src 'none'/);
    for (const name of facts.methodNames) assert.ok(rpc.text.includes(name), `rpc.html lacks ${name}`);
    const copy = await request(app).get('/docs/openrpc.json');
    assert.match(copy.headers['content-type'] ?? '', /^application\/json/);
  });

  it('answers a repeated request with 304 by its own ETag, even with Express ETags off', async () => {
    const app = express().set('etag', false).use(createDocsRouter({ docsDir }));
    for (const path of ['/docs/rest.html', '/openapi.json']) {
      const first = await request(app).get(path);
      assert.match(first.headers.etag ?? '', /^"[\w-]+"$/, path);
      assert.equal(first.headers['cache-control'], 'no-cache');
      const again = await request(app).get(path).set('If-None-Match', first.headers.etag ?? '');
      assert.equal(again.status, 304, path);
    }
  });

  it('leaves other paths to the next handler', async () => {
    const app = appWith(createDocsRouter({ docsDir })).use((_req, res) => res.status(418).end());
    assert.equal((await request(app).get('/docs/build-info.json')).status, 418);
    assert.equal((await request(app).get('/docs/../package.json')).status, 418);
    assert.equal((await request(app).get('/tokens')).status, 418);
  });

  it("overrides helmet's default CSP on the docs, keeps it elsewhere", async () => {
    const app = express().use(helmet()).use(createDocsRouter({ docsDir })).get('/other', (_req, res) => res.send('x'));
    assert.match((await request(app).get('/docs/rest.html')).headers['content-security-policy'] ?? '', /'sha256-/);
    assert.doesNotMatch((await request(app).get('/other')).headers['content-security-policy'] ?? '', /'sha256-/);
  });

  it('builds the site on the first /docs request when there is no prebuilt one, once', async () => {
    const cacheDir = join(scratch, 'cache');
    const app = appWith(createDocsRouter({ docsDir: join(scratch, 'missing'), cacheDir }));
    await assert.rejects(readdir(cacheDir), 'nothing is built before a request');
    const [a, b] = await Promise.all([request(app).get('/docs/rest.html'), request(app).get('/docs/rpc.html')]);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.deepEqual(a.text, await readFile(join(docsDir, 'rest.html'), 'utf8'));
    const entries = await readdir(cacheDir);
    assert.equal(entries.length, 1, `one build, found ${entries.join(', ')}`);
  });

  it('serves a site rendered in memory when the cache directory cannot be written, built once', async () => {
    const blocker = join(scratch, 'not-a-dir');
    await writeFile(blocker, 'a file where the cache directory would go');
    const errors: string[] = [];
    const app = appWith(createDocsRouter({ docsDir: join(scratch, 'missing'), cacheDir: join(blocker, 'cache'), onError: (_e, what) => errors.push(what) }));
    for (const page of ['/docs/', '/docs/rest.html', '/docs/rpc.html']) {
      const res = await request(app).get(page);
      assert.equal(res.status, 200, page);
    }
    assert.equal((await request(app).get('/docs/rest.html')).text, await readFile(join(docsDir, 'rest.html'), 'utf8'));
    assert.deepEqual(errors, ['cache'], 'told once that the cache cannot be written; no build error');
  });

  it('answers 503 problem+json with Retry-After while a failed build waits for its retry, and does not rebuild per request', async () => {
    const errors: string[] = [];
    const docs = createDocsRouter({ docsDir: join(scratch, 'missing'), specDir: join(scratch, 'no-specs'), cacheDir: join(scratch, 'cache2'), retryAfterMs: 30_000, onError: (_e, what) => errors.push(what) });
    const app = testApp({} as Database, { routers: [docs] });
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/docs/');
      assert.equal(res.status, 503);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.ok(Number(res.headers['retry-after']) >= 1 && Number(res.headers['retry-after']) <= 30, res.headers['retry-after']);
      assert.doesNotMatch(res.text, /\n\s+at /, 'no stack trace');
    }
    assert.deepEqual(errors, ['build'], 'one build attempt for three requests');
  });

  it('does not serve a prebuilt site built from other specs', async () => {
    const stale = join(scratch, 'stale');
    await cp(docsDir, stale, { recursive: true });
    await writeFile(join(stale, 'index.html'), 'STALE');
    await writeFile(join(stale, 'build-info.json'), JSON.stringify({ specHash: 'other' }));
    // The cache from the previous test already holds a build of the current specs.
    const app = appWith(createDocsRouter({ docsDir: stale, cacheDir: join(scratch, 'cache') }));
    const res = await request(app).get('/docs/');
    assert.equal(res.status, 200);
    assert.doesNotMatch(res.text, /STALE/);
  });

  it('works mounted in the app through `routers`, before the OpenAPI validator', async () => {
    const app = testApp({} as Database, { routers: [createDocsRouter({ docsDir })] });
    assert.equal((await request(app).get('/docs/')).status, 200);
    const rest = await request(app).get('/docs/rest.html');
    assert.equal(rest.status, 200);
    assert.match(rest.headers['content-security-policy'] ?? '', /script-src 'sha256-[^;]*;/, 'the docs CSP replaces the app-wide one');
    assert.equal((await request(app).get('/openapi.json')).status, 200);
    const unknown = await request(app).get('/docs/nope.html');
    assert.equal(unknown.status, 404);
  });
});
