// The explorer (/explorer) in a real browser (the Chromium of the npm package @sparticuz/chromium)
// against a running demo, every figure compared with what the API answers at the same moment:
// the table's first page is GET /tokens; paging, searching, ordering and the isSecure filter
// change it as the API does; the rows are reachable by keyboard; a token page draws as many
// candles as the candles endpoint answers, with the same last close, and lists the token's
// pools; the network-token page shows circulating = total − excluded; a transaction is looked up
// through POST /rpc; an API error is shown as its problem's title and detail. The page logs no
// console error, reaches nothing but the service, keeps to the API requests a second the server allows, does not
// shift its layout while data loads, and is screenshot at 1280×800 and 390×844.
// Called by test/main/demoServed.test.ts on the demo it starts (`npm start`).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { formatPrice } from '../../src/explorer/page/format.ts';
import { launchBrowser } from '../helpers/browser.ts';

type TokenRow = { contractAddress: string; symbol: string; currentPrice: number | null; info: { swaps: number } };
type Candles = { candles: { close: number[] } };

/** Where the screenshots go: $TEST_ARTIFACTS_DIR/explorer, by default test-artifacts/explorer (gitignored). */
export const explorerArtifactsDir = join(process.env.TEST_ARTIFACTS_DIR ?? join(import.meta.dirname, '..', '..', 'test-artifacts'), 'explorer');

export type ExplorerReport = { firstRenderMs: number; apiRequests: number; screenshots: string[] };

export async function checkExplorerInBrowser(url: string): Promise<ExplorerReport> {
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`);
    assert.equal(res.status, 200, `GET ${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  const addresses = (page: { data: { contractAddress: string }[] }) => page.data.map((t) => t.contractAddress);

  const root = await fetch(`${url}/`, { redirect: 'manual' });
  assert.equal(root.status, 302, 'the demo redirects / to the explorer');
  assert.equal(root.headers.get('location'), '/explorer');

  mkdirSync(explorerArtifactsDir, { recursive: true });
  const screenshots: string[] = [];
  const problems: string[] = [];
  const apiRequestTimes: number[] = [];
  const expectedErrors: RegExp[] = [];
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    // Cumulative layout shift (shifts not caused by input), as Web Vitals counts it.
    await context.addInitScript(() => {
      const w = window as unknown as { layoutShift: number };
      w.layoutShift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) w.layoutShift += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const layoutShift = () => page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
    const page = await context.newPage();
    // The service itself, also by the name localhost (the demo's logo URLs name it so).
    const service = [`${url}/`, `${url.replace('127.0.0.1', 'localhost')}/`];
    await page.route('**/*', (route) => {
      const target = route.request().url();
      if (service.some((s) => target.startsWith(s)) || target.startsWith('data:')) return route.continue();
      problems.push(`outside request ${target}`);
      return route.abort();
    });
    page.on('console', (m) => {
      if (m.type() === 'error' && !expectedErrors.some((e) => e.test(m.text()))) problems.push(`console error ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed ${r.url()} ${r.failure()?.errorText}`));
    page.on('request', (r) => {
      if (/\/(tokens|prices|supply|rpc)\b/.test(new URL(r.url()).pathname)) apiRequestTimes.push(Date.now());
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && !expectedErrors.some((e) => e.test(r.url()))) problems.push(`HTTP ${r.status()} ${r.url()}`);
    });
    const shoot = async (name: string) => {
      const path = join(explorerArtifactsDir, `${name}.png`);
      await page.screenshot({ path });
      screenshots.push(path);
    };

    // The table's first page is GET /tokens, rendered within a second of navigation.
    const response = await page.goto(`${url}/explorer`);
    assert.equal(response?.status(), 200);
    const ready = (query: string) => page.waitForSelector(`#token-table[data-state="ready"][data-query="${query}"]`, { timeout: 15_000 });
    await ready('');
    const firstRenderMs = await page.evaluate(() => performance.getEntriesByName('explorer:table-rendered')[0]?.startTime ?? Infinity);
    assert.ok(firstRenderMs < 1000, `first render of the table after ${Math.round(firstRenderMs)} ms (budget 1000 ms)`);
    const rows = () => page.$$eval('#token-table tbody tr[data-address]', (trs) => trs.map((tr) => (tr as HTMLElement).dataset.address));
    const first = await api<{ data: TokenRow[]; meta: { totalItemsCount: number } }>('/tokens');
    assert.deepEqual(await rows(), addresses(first), 'the first page is GET /tokens');
    const symbols = await page.$$eval('#token-table tbody tr .symbol', (s) => s.map((e) => e.textContent));
    assert.deepEqual(symbols, first.data.map((t) => t.symbol));
    assert.match(await page.innerText('.table-status'), new RegExp(`${first.meta.totalItemsCount} tokens`));
    assert.equal(await page.getAttribute('th[aria-sort] button[aria-pressed="true"]', 'data-order'), 'fdv', 'the default ordering (fdv, descending) is marked');
    await shoot('table-1280');
    assert.ok((await layoutShift()) < 0.05, `layout shift while the table loads: ${await layoutShift()}`);

    // Paging within the API's bounds, then searching, ordering by a column (descending, then
    // ascending) and filtering on isSecure: each page is what the API answers for that query.
    const same = async (query: string) => {
      await ready(query);
      const expected = addresses(await api(`/tokens${query ? `?${query}` : ''}`));
      assert.deepEqual(await rows(), expected, query);
      return expected;
    };
    await page.selectOption('#token-limit', '10');
    await same('limit=10');
    await page.click('#page-next');
    await same('page=2&limit=10');
    await page.fill('#token-search', 'usd');
    await same('search=usd&limit=10');
    await page.click('button[data-order="liquidity"]');
    await same('search=usd&order=liquidity&sort=desc&limit=10');
    assert.equal(await page.getAttribute('th:has(button[data-order="liquidity"])', 'aria-sort'), 'descending');
    await page.click('button[data-order="liquidity"]');
    await same('search=usd&order=liquidity&sort=asc&limit=10');
    assert.equal(await page.getAttribute('th:has(button[data-order="liquidity"])', 'aria-sort'), 'ascending');
    await page.click('button[data-order="marketCap"]');
    await page.selectOption('#token-secure', 'true');
    const secure = await same('search=usd&isSecure=true&order=marketCap&sort=desc&limit=10');
    assert.ok(secure.length >= 2, 'two rows to move between');

    // Keyboard: the rows are one Tab stop; arrows move, Enter opens the token.
    await page.focus('#token-table tbody tr[tabindex="0"]');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.address), secure[1]);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForFunction((a) => location.hash === `#/token/${a}`, secure[0]);

    // A traded token: its candles (count and last close read back from the chart) and its pools.
    const traded = first.data.find((t) => t.currentPrice !== null && t.info.swaps > 0)!;
    assert.ok(traded, 'a traded token on the first page');
    await page.goto(`${url}/explorer#/token/${traded.contractAddress}`);
    for (const interval of ['1h', '5m']) {
      if (interval !== '1h') await page.click(`button[data-interval="${interval}"]`);
      const legend = await page.waitForSelector(`#candle-legend[data-interval="${interval}"]`, { timeout: 15_000 });
      const expected = await api<Candles>(`/prices/${traded.contractAddress}/candles?interval=${interval}`);
      const drawn = Number(await legend.getAttribute('data-candles'));
      const lastClose = Number(await legend.getAttribute('data-last-close'));
      assert.ok(drawn > 0, `${interval}: candles drawn`);
      assert.equal(drawn, expected.candles.close.length, `${interval}: candles drawn = the endpoint's`);
      assert.equal(lastClose, expected.candles.close.at(-1), `${interval}: last close = the endpoint's`);
      assert.equal(await legend.innerText(), `${drawn} candles of ${interval} · last close ${formatPrice(expected.candles.close.at(-1))}`, 'the close shown');
      const canvas = await page.$eval('#candle-chart canvas', (c) => (c as HTMLCanvasElement).width * (c as HTMLCanvasElement).height);
      assert.ok(canvas > 0, 'the chart has a canvas');
    }
    await page.waitForSelector('#pools-table[data-state="ready"]');
    const pools = await api<{ data: { address: string }[] }>(`/tokens/${traded.contractAddress}/pools?limit=10`);
    assert.ok(pools.data.length > 0, 'the traded token has pools');
    assert.deepEqual(await page.$$eval('#pools-table tr[data-pool]', (trs) => trs.map((tr) => (tr as HTMLElement).dataset.pool)), pools.data.map((p) => p.address));
    assert.match(await page.innerText('#price-source'), /pool|anchor/i);
    assert.match(await page.innerText('#security'), /Security score \d+/);
    assert.match(await page.innerText('#history-legend'), /\d+ hourly prices/);
    await shoot('token-1280');
    assert.ok((await layoutShift()) < 0.05, `layout shift of the table and token views: ${await layoutShift()}`);
    // The phone width: nothing wider than the screen (the chart follows its box's width).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.querySelector('#candle-chart canvas')!.getBoundingClientRect().width <= 390);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the token page fits 390 px');
    await shoot('token-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The network token: circulating = total − excluded, as the supply endpoint answers it.
    await page.goto(`${url}/explorer#/network`);
    await page.waitForSelector('#supply-invariant', { timeout: 15_000 });
    const figure = (id: string) => page.getAttribute(`#${id} td`, 'data-base-units').then((v) => BigInt(v ?? 'x'));
    const [total, excluded, circulating] = await Promise.all([figure('supply-total'), figure('supply-excluded'), figure('supply-circulating')]);
    assert.ok(excluded > 0n, 'the demo excludes wallets');
    assert.equal(circulating, total - excluded, 'circulating = total − excluded');
    assert.equal(await page.getAttribute('#supply-invariant', 'data-holds'), 'true');
    const networkToken = await page.getAttribute('meta[name="explorer:network-token"]', 'content');
    const supply = await api<{ circulatingSupply: { baseUnits: string }; excluded: { wallets: unknown[] } }>(`/supply/circulating?contractAddress=${networkToken}&format=json`);
    assert.equal(circulating, BigInt(supply.circulatingSupply.baseUnits), 'the page shows the endpoint\'s circulating supply');
    assert.equal(await page.locator('#supply-table tr.excluded').count(), supply.excluded.wallets.length, 'one row per excluded wallet');

    // A transaction through POST /rpc, by block and index.
    await page.fill('#tx-block', 'latest');
    await page.fill('#tx-index', '0');
    await page.click('#tx-form button[type="submit"]');
    const shownHash = await (await page.waitForSelector('#tx-fields', { timeout: 15_000 })).getAttribute('data-hash');
    const rpcAnswer = (await (await fetch(`${url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [shownHash] }) })).json()) as { result: { hash: string } | null };
    assert.equal(rpcAnswer.result?.hash, shownHash, 'the transaction shown is one the node has');

    // The table at the phone width: it scrolls inside its own box.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${url}/explorer#/`);
    await ready('');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the table page fits 390 px (the table scrolls in its box)');
    await shoot('table-390');

    // Dark mode follows the system.
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(13, 17, 23)', 'dark background under prefers-color-scheme: dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // An API error is shown as its problem's title and detail (this 404 is the one expected).
    const unknown = `0x${'00'.repeat(19)}ff`;
    expectedErrors.push(new RegExp(`/tokens/${unknown}|status of 404`));
    await page.goto(`${url}/explorer#/token/${unknown}`);
    const problem = await page.waitForSelector('.problem[role="alert"]', { timeout: 15_000 });
    const expectedProblem = (await (await fetch(`${url}/tokens/${unknown}`)).json()) as { title: string; detail: string };
    assert.equal(await (await problem.$('.problem-title'))?.innerText(), expectedProblem.title);
    assert.equal(await (await problem.$('.problem-detail'))?.innerText(), expectedProblem.detail);

    // The page kept to the per-second limit the server gave it (the demo's 50; the pacing at the
    // default 2 is test/explorer/pacedFetch.test.ts's; 0.95 s here leaves the test's own clock 0.1 s of slack).
    const told = (await page.getAttribute('meta[name="explorer:rate-limit"]', 'content')) ?? '';
    // What the page is told is what the API enforces: its RateLimit-Policy quotas per 1 s and per 60 s.
    const policy = (await fetch(`${url}/tokens?limit=1`)).headers.get('ratelimit-policy') ?? '';
    const quota = (window: number) => new RegExp(`q=(\\d+); w=${window}(?:,|$)`).exec(policy)?.[1];
    assert.equal(told, `${quota(1)}/${quota(60)}`, `the page's limits are the API's (${policy})`);
    const perSecond = Number(told.split('/')[0]);
    for (const [i, t] of apiRequestTimes.entries()) {
      const inSecond = apiRequestTimes.slice(i).filter((u) => u < t + 950).length;
      assert.ok(inSecond <= perSecond, `${inSecond} API requests within 0.95 s from request ${i} (limit ${perSecond})`);
    }
    assert.deepEqual(problems, [], 'no console error, failed, refused or outside request');
    return { firstRenderMs, apiRequests: apiRequestTimes.length, screenshots };
  } finally {
    await browser?.close();
  }
}
