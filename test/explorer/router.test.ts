// The explorer's router and bundle without a browser: the page and its two files behind helmet
// and compression as the service mounts them, its CSP (no inline code), caching, the bundle's
// size budget, and the build writing the same bundle into dist/ that the router would make.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import compression from 'compression';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { bundleExplorer } from '../../src/explorer/bundleExplorer.ts';
import { createExplorerRouter, EXPLORER_CSP, EXPLORER_FILE_PATHS, type ExplorerBundle } from '../../src/explorer/index.ts';

/** The budget for the page's JavaScript. */
const MAX_GZIPPED_JS = 200 * 1024;

describe('explorer router', () => {
  let server: Server;
  let origin: string;
  let app: express.Express;
  let bundle: ExplorerBundle;
  const networkToken = '0x00000000000000000000000000000000000000aa';

  before(async () => {
    bundle = await bundleExplorer();
    const router = createExplorerRouter({ networkToken, redirectRoot: true, load: async () => bundle });
    await router.warm();
    app = express().use(helmet()).use(compression()).use(router);
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it(`bundles the page into one script under ${MAX_GZIPPED_JS / 1024} KB gzipped and one style sheet`, (t) => {
    const gzipped = gzipSync(bundle['explorer.js'], { level: 9 }).length;
    t.diagnostic(`explorer.js ${bundle['explorer.js'].length} bytes, ${gzipped} gzipped; explorer.css ${bundle['explorer.css'].length} bytes`);
    assert.ok(gzipped < MAX_GZIPPED_JS, `explorer.js is ${gzipped} bytes gzipped`);
    assert.match(bundle['explorer.js'].toString(), /Apache License|Apache-2\.0/, 'lightweight-charts\' licence notice is kept');
    assert.match(bundle['explorer.css'].toString(), /prefers-color-scheme:\s*dark/);
  });

  it('serves the page under its own CSP: only this server\'s script and style sheet, no inline code', async () => {
    const res = await fetch(`${origin}/explorer`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-security-policy'), EXPLORER_CSP);
    assert.match(EXPLORER_CSP, /script-src 'self';/);
    assert.doesNotMatch(EXPLORER_CSP, /unsafe-inline|unsafe-eval/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'no inline script');
    assert.doesNotMatch(html, /<style|\sstyle=/i, 'no inline style');
    assert.match(html, new RegExp(`<meta name="explorer:network-token" content="${networkToken}">`));
    assert.match(html, /<meta name="explorer:rate-limit" content="2\/60">/, 'the default limits, when none are given');
    const linked = [...html.matchAll(/(?:src|href)="(\/explorer\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    const script = linked.find((p) => p.includes('.js?'));
    const style = linked.find((p) => p.includes('.css?'));
    assert.ok(script && style, 'the page links its script and style sheet');
    for (const path of [script, style]) {
      const asset = await fetch(`${origin}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(asset.status, 200, path);
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable', `${path}: its URL carries its content hash`);
      assert.equal(asset.headers.get('content-encoding'), 'gzip');
    }
    assert.equal((await fetch(`${origin}${script}`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal((await fetch(`${origin}${style}`)).headers.get('content-type'), 'text/css; charset=utf-8');
  });

  it('revalidates by ETag, redirects / in the demo, and names every path it serves for the rate-limit exemption', async () => {
    const first = await fetch(`${origin}/explorer/assets/explorer.js`);
    assert.equal(first.headers.get('cache-control'), 'no-cache', 'without the current ?v= the file is revalidated');
    // (supertest: fetch adds Cache-Control: no-cache to a request with If-None-Match)
    const again = await request(app).get('/explorer/assets/explorer.js').set('If-None-Match', first.headers.get('etag')!);
    assert.equal(again.status, 304);
    const root = await fetch(`${origin}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/explorer');
    for (const path of EXPLORER_FILE_PATHS) assert.equal((await fetch(`${origin}${path}`)).status, 200, path);
    assert.equal((await fetch(`${origin}/explorer/assets/other.js`)).status, 404);
  });
});
