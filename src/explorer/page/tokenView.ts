// A token (#/token/0x…?interval=1h): figures, price source, security, candles with volume, the
// 24 h hourly history and the pools. Requests: 4 when the view opens (the token, its pools, its
// candles, its hourly history; the paced fetch sends them over about a second), 1 per interval
// change; then every REFRESH_MS a conditional GET of the token (a 304 while the data version
// stands) and, only when it changed, the other 3 again: at most 12 a minute.
import type { CandleInterval, Pool, Token } from '../../client/index.ts';
import { api, dataOf, problemBox } from './api.ts';
import { candleChart, historyChart } from './charts.ts';
import { h, replace } from './dom.ts';
import { DASH, formatInteger, formatPercent, formatPrice, formatTime, formatUnits, formatUsd, trend } from './format.ts';
import { flagBadges, tokenLogo } from './tokenBits.ts';

const REFRESH_MS = 20_000;
const INTERVALS: CandleInterval[] = ['5m', '15m', '1h', '4h', '1d'];
const POOLS_SHOWN = 10;

export function mountTokenView(view: HTMLElement, address: string, params: URLSearchParams, networkToken: string): () => void {
  let interval: CandleInterval = INTERVALS.includes(params.get('interval') as CandleInterval) ? (params.get('interval') as CandleInterval) : '1h';
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let etag: string | null = null;

  const head = h('div', { class: 'token-head' }, h('h1', {}, 'Loading…'));
  const problem = h('div', { class: 'problem-slot' });
  const stats = h('dl', { class: 'stats', id: 'token-stats' });
  const source = h('div', { class: 'card', id: 'price-source' }, h('h2', {}, 'Price source'), h('p', {}, '…'));
  const security = h('div', { class: 'card', id: 'security' }, h('h2', {}, 'Security'), h('p', {}, '…'));
  const intervalButtons = h('div', { class: 'intervals', role: 'group', 'aria-label': 'Candle interval' });
  const candleBox = h('div', { class: 'chart chart-candles', id: 'candle-chart', role: 'img', 'aria-label': 'Candles and volume' });
  const candleLegend = h('p', { class: 'legend', id: 'candle-legend', 'aria-live': 'polite' }, ' ');
  const historyBox = h('div', { class: 'chart chart-history', id: 'history-chart', role: 'img', 'aria-label': 'Hourly prices, last 24 hours' });
  const historyLegend = h('p', { class: 'legend', id: 'history-legend' }, ' ');
  const poolsBody = h('tbody');
  const poolsTable = h('table', { class: 'pools', id: 'pools-table', 'aria-label': 'Pools' }, h('thead', {}, h('tr', {}, ...['Pool', 'Pair', 'DEX', 'Family', 'Fee / kind', 'Liquidity', 'Volume 24 h', 'Swaps 24 h', 'Price'].map((t) => h('th', { scope: 'col' }, t)))), poolsBody);
  const poolsNote = h('p', { class: 'legend', id: 'pools-note' }, ' ');

  replace(
    view,
    h('p', {}, h('a', { href: '#/' }, '← All tokens')),
    head,
    problem,
    stats,
    h('section', { class: 'chart-section', 'aria-labelledby': 'candles-title' }, h('div', { class: 'chart-head' }, h('h2', { id: 'candles-title' }, 'Candles'), intervalButtons), candleBox, candleLegend),
    h('div', { class: 'cards' }, source, security),
    h('section', { class: 'chart-section', 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'Last 24 hours (hourly)'), historyBox, historyLegend),
    h('section', { 'aria-labelledby': 'pools-title' }, h('h2', { id: 'pools-title' }, 'Pools'), h('div', { class: 'table-scroll' }, poolsTable), poolsNote),
  );
  const candles = candleChart(candleBox);
  let history: { remove(): void } | undefined;
  renderIntervals();
  renderStats();

  function renderIntervals(): void {
    replace(intervalButtons, ...INTERVALS.map((i) => h('button', { type: 'button', 'data-interval': i, 'aria-pressed': 'false' }, i)));
    markInterval();
  }
  /** Marks the interval shown; the buttons stay (and keep the keyboard focus). */
  function markInterval(): void {
    for (const b of intervalButtons.querySelectorAll<HTMLButtonElement>('button')) b.setAttribute('aria-pressed', String(b.dataset.interval === interval));
  }
  intervalButtons.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-interval]');
    if (!button || button.dataset.interval === interval) return;
    interval = button.dataset.interval as CandleInterval;
    window.history.replaceState(null, '', `#/token/${address}?interval=${interval}`);
    markInterval();
    void loadCandles().catch(show);
  });

  const show = (error: unknown) => {
    if (!stopped) replace(problem, problemBox(error));
  };
  const path = { contractAddress: address };

  async function loadCandles(): Promise<void> {
    const asked = interval;
    const series = dataOf(await api.GET('/prices/{contractAddress}/candles', { params: { path, query: { interval: asked } }, cache: 'no-cache' }));
    if (stopped || asked !== interval) return;
    const { drawn, lastClose } = candles.show(series);
    candleLegend.dataset.interval = asked;
    candleLegend.dataset.candles = String(drawn);
    candleLegend.dataset.lastClose = lastClose === null ? '' : String(lastClose);
    candleLegend.textContent = drawn ? `${drawn} candles of ${asked} · last close ${formatPrice(lastClose)}` : `No candles: the token has no price yet.`;
  }

  async function loadHistory(): Promise<void> {
    const points = dataOf(await api.GET('/prices/{contractAddress}', { params: { path }, cache: 'no-cache' }));
    if (stopped) return;
    history?.remove();
    history = historyChart(historyBox, points);
    const first = points[0]?.price;
    const last = points.at(-1)?.price;
    historyLegend.textContent = points.length ? `${points.length} hourly prices · from ${formatPrice(first)} to ${formatPrice(last)}` : 'No hourly prices yet.';
  }

  async function loadPools(): Promise<void> {
    const page = dataOf(await api.GET('/tokens/{contractAddress}/pools', { params: { path, query: { limit: POOLS_SHOWN } }, cache: 'no-cache' }));
    if (stopped) return;
    replace(poolsBody, ...page.data.map(poolRow));
    if (!page.data.length) replace(poolsBody, h('tr', {}, h('td', { colspan: 9, class: 'empty' }, 'No pool holds this token.')));
    poolsTable.dataset.state = 'ready';
    poolsNote.textContent = page.meta.totalItemsCount > page.data.length ? `The ${page.data.length} deepest of ${page.meta.totalItemsCount} pools.` : `${page.meta.totalItemsCount} pool(s).`;
  }

  async function loadToken(refresh: boolean): Promise<boolean> {
    const answer = await api.GET('/tokens/{contractAddress}', { params: { path }, cache: 'no-cache' });
    const token = dataOf(answer);
    const tag = answer.response.headers.get('etag');
    const changed = !refresh || !tag || tag !== etag;
    etag = tag;
    if (!stopped && changed) renderToken(token);
    return changed;
  }

  /** The figures; before the token is loaded the same boxes with dots, so that nothing moves when it comes. */
  function renderStats(t?: Token): void {
    replace(stats, ...figures.map(([label, value, id]) => h('div', { class: 'stat' }, h('dt', {}, label), h('dd', { id }, t ? value(t) : '…'))));
  }

  function renderToken(t: Token): void {
    document.title = `${t.symbol} · Token explorer`;
    replace(
      head,
      tokenLogo(t, 32),
      h('h1', {}, t.name, ' ', h('span', { class: 'symbol' }, t.symbol)),
      flagBadges(t),
      h('code', { class: 'address' }, t.contractAddress),
      t.contractAddress.toLowerCase() === networkToken.toLowerCase() ? h('a', { href: '#/network' }, 'Network token supply →') : null,
    );
    renderStats(t);
    const s = t.info.priceSource;
    replace(
      source,
      h('h2', {}, 'Price source'),
      !s
        ? h('p', {}, 'No price: no pool against a quote token reaches the liquidity minimum.')
        : s.family === 'anchor'
          ? h('p', {}, `USD anchor (${s.kind}): ${s.description} `, h('code', {}, s.address))
          : h('p', {}, `The ${s.family} pool `, h('code', {}, s.address), ` (${s.token0.symbol}/${s.token1.symbol}), liquidity ${formatUsd(s.liquidity)}, 24 h volume ${formatUsd(s.volume24h)}.`),
    );
    replace(
      security,
      h('h2', {}, `Security score ${t.security.score}`, t.isSecure ? ' · secure' : ' · not secure'),
      h('ul', { class: 'reasons' }, ...t.security.reasons.map((r) => h('li', {}, h('span', { class: `impact ${trend(r.impact)}` }, `${r.impact > 0 ? '+' : ''}${r.impact}`), ' ', r.detail, ' ', h('code', {}, r.code)))),
      t.isPossibleSpam ? h('p', { class: 'spam-note' }, 'Possible spam: ', t.spamReasons.map((r) => r.detail).join('; ')) : null,
    );
  }

  async function loadAll(refresh: boolean): Promise<void> {
    try {
      const changed = await loadToken(refresh);
      if (changed) await Promise.all([loadCandles(), loadPools(), loadHistory()]);
      if (!stopped) replace(problem);
    } catch (error) {
      show(error);
    } finally {
      if (!stopped) timer = setTimeout(() => void loadAll(true), REFRESH_MS);
    }
  }

  void loadAll(false);
  return () => {
    stopped = true;
    clearTimeout(timer);
    candles.remove();
    history?.remove();
  };
}

const change = (v: number | null) => h('span', { class: `change ${trend(v)}` }, formatPercent(v));

/** The token page's figures: label, value, element id (those the browser test reads). */
const figures: [string, (t: Token) => Node | string, string?][] = [
  ['Price', (t) => formatPrice(t.currentPrice), 'stat-price'],
  ['Market cap', (t) => formatUsd(t.info.marketCap), 'stat-market-cap'],
  ['FDV', (t) => formatUsd(t.info.fdv)],
  ['Circulating supply', (t) => formatUnits(t.info.circulatingSupply, t.decimals), 'stat-circulating'],
  ['Total supply', (t) => formatUnits(t.info.totalSupply, t.decimals)],
  ['Liquidity', (t) => formatUsd(t.info.liquidity)],
  ['Volume 24 h', (t) => formatUsd(t.info.volume24h)],
  ['Swaps 24 h', (t) => `${formatInteger(t.info.swaps)} (${formatInteger(t.info.buys)} buys, ${formatInteger(t.info.sells)} sells)`],
  ['1 h', (t) => change(t.info.priceChange.h1)],
  ['6 h', (t) => change(t.info.priceChange.h6)],
  ['24 h', (t) => change(t.info.priceChange.h24)],
  ['7 d', (t) => change(t.info.priceChange.d7)],
  ['Priced at', (t) => formatTime(t.priceUpdatedAt)],
  ['Market last active', (t) => formatTime(t.marketUpdatedAt)],
];

function poolRow(p: Pool): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-pool': p.address },
    h('td', {}, h('code', { title: p.address }, `${p.address.slice(0, 8)}…`)),
    h('td', {}, `${p.token0.symbol}/${p.token1.symbol}`),
    h('td', {}, h('code', { title: p.dex }, `${p.dex.slice(0, 8)}…`)),
    h('td', {}, p.family),
    h('td', {}, p.fee !== null ? `${p.fee / 10_000} %` : p.stable === null ? DASH : p.stable ? 'stable' : 'volatile'),
    h('td', { class: 'num' }, formatUsd(p.liquidity)),
    h('td', { class: 'num' }, formatUsd(p.volume24h)),
    h('td', { class: 'num' }, formatInteger(p.swaps24h)),
    h('td', { class: 'num' }, p.price === null ? DASH : p.price.toPrecision(6)),
  );
}
