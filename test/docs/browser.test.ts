// The docs in a real browser (the Chromium of the npm package @sparticuz/chromium, no download), served behind helmet and
// compression as an app would: pages render, every operation and method is shown, and the
// pages log no console error and make no failed or outside request.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import compression from 'compression';
import express from 'express';
import helmet from 'helmet';
import type { Browser, Page } from 'playwright-core';
import { createDocsRouter } from '../../src/docs/index.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { buildDocsOnce, removeBuiltDocs } from './buildDocsOnce.ts';
import { specFacts } from './specFacts.ts';

const facts = specFacts();

describe('docs in a browser', { timeout: 180_000 }, () => {
  let server: Server;
  let browser: Browser;
  let origin: string;
  const problems: string[] = [];

  before(async () => {
    const { outDir } = await buildDocsOnce();
    const app = express().use(helmet()).use(compression()).use(createDocsRouter({ docsDir: outDir }));
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await removeBuiltDocs();
  });

  /** A fresh page that records every console error, page error, failed request and outside request. */
  async function openPage(path: string): Promise<Page> {
    const page = await browser.newPage();
    // Only the docs server may be reached; anything else would need the network.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
      problems.push(`${path}: outside request ${url}`);
      return route.abort();
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${path}: console error ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`${path}: page error ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`${path}: request failed ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${path}: HTTP ${r.status()} ${r.url()}`);
    });
    const response = await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
    assert.equal(response?.status(), 200, `${path} answered ${response?.status()}`);
    return page;
  }

  it('renders the landing page with every operation and method, linked', async () => {
    const page = await openPage('/docs/');
    const text = await page.innerText('body');
    for (const id of facts.operationIds) assert.ok(text.includes(id), `landing page does not show ${id}`);
    for (const name of facts.methodNames) assert.ok(text.includes(name), `landing page does not show ${name}`);
    await page.click('header >> text=JSON-RPC reference');
    await page.waitForURL(`${origin}/docs/rpc.html`);
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('renders the REST reference (Redoc) with every operationId', async () => {
    const page = await openPage('/docs/rest.html');
    const text = await page.innerText('body');
    assert.match(text, new RegExp(String((facts.openapi as { info?: { title?: string } }).info?.title ?? 'API')));
    // Redoc's sidebar lists a tag's operations once the reader reaches its section: scroll the
    // page as a reader does, gathering the sidebar's links to operations, until every one is seen.
    const hrefs = new Set<string>();
    const linked = (id: string) => [...hrefs].some((h) => h.toLowerCase().endsWith(`/${id.toLowerCase()}`));
    for (let step = 0; step < 200 && !facts.operationIds.every(linked); step++) {
      for (const href of await page.$$eval('a[href^="#/"]', (as) => as.map((a) => a.getAttribute('href') ?? ''))) hrefs.add(href);
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(100);
    }
    for (const id of facts.operationIds) {
      const href = [...hrefs].find((h) => h.toLowerCase().endsWith(`/${id.toLowerCase()}`));
      assert.ok(href, `no sidebar link to ${id} among ${[...hrefs].join(' ')}`);
      await page.goto(`${origin}/docs/rest.html${href}`);
      await page
        .waitForFunction((needle) => document.body.innerText.includes(needle), `Operation ID: ${id}`, { timeout: 15_000 })
        .catch(() => assert.fail(`the page at ${href} does not show operationId ${id}`));
    }
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('renders the JSON-RPC reference with every method, its params and examples', async () => {
    const page = await openPage('/docs/rpc.html');
    const text = await page.innerText('main');
    for (const method of facts.methods) {
      assert.ok(text.includes(method.name), `rpc page does not show ${method.name}`);
      const section = await page.innerText(`section#method-${method.name}`);
      for (const param of method.params) if ('name' in param) assert.ok(section.includes(param.name), `${method.name}: ${param.name}`);
      if ((method.examples ?? []).length) assert.match(section, /"jsonrpc": "2\.0"/);
    }
    await page.close();
    assert.deepEqual(problems, []);
  });
});
