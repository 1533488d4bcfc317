// The token table (#/): GET /tokens with the order, direction, isSecure filter, search and page
// kept in the address (#/?order=liquidity&sort=asc&search=usd&page=2). Requests: 1 when the view
// opens and 1 per change (a search is sent 300 ms after the last keystroke); then 1 every
// REFRESH_MS, conditional (If-None-Match: the answer is a 304 until the data version moves), so
// 6 a minute while the view is open. Keyboard: Tab reaches the sort buttons and the rows;
// ↑/↓/Home/End move between rows, Enter opens the token.
import type { OrderColumn, TokenPage } from '../../client/index.ts';
import { api, dataOf, problemBox } from './api.ts';
import { h, replace } from './dom.ts';
import { columns } from './tokenColumns.ts';

const REFRESH_MS = 10_000;
const LIMITS = [10, 25, 50, 100]; // the API's limit is 1 to 100
const MAX_PAGE = 1000; // the API's page bound

type State = { order?: OrderColumn; sort?: 'asc' | 'desc'; search: string; isSecure: '' | 'true' | 'false'; page: number; limit: number };

function stateFrom(params: URLSearchParams): State {
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const limit = Number.parseInt(params.get('limit') ?? '50', 10);
  const sort = params.get('sort');
  const isSecure = params.get('isSecure');
  return {
    order: (params.get('order') as OrderColumn | null) ?? undefined,
    sort: sort === 'asc' || sort === 'desc' ? sort : undefined,
    search: params.get('search') ?? '',
    isSecure: isSecure === 'true' || isSecure === 'false' ? isSecure : '',
    page,
    limit: LIMITS.includes(limit) ? limit : 50,
  };
}

/** The query the state asks the API for, in a fixed order (also the table's data-query). */
function queryOf(s: State): URLSearchParams {
  const q = new URLSearchParams();
  if (s.search.trim()) q.set('search', s.search);
  if (s.isSecure) q.set('isSecure', s.isSecure);
  if (s.order) q.set('order', s.order);
  if (s.sort) q.set('sort', s.sort);
  if (s.page !== 1) q.set('page', String(s.page));
  if (s.limit !== 50) q.set('limit', String(s.limit));
  return q;
}

/** The ordering in force: the API's default is fdv descending, or relevance with a search. */
function activeOrder(s: State): { key?: OrderColumn; sort: 'asc' | 'desc' } {
  if (!s.order && !s.sort && s.search.trim()) return { sort: 'desc' };
  return { key: s.order ?? 'fdv', sort: s.sort ?? 'desc' };
}

export function mountTokenTable(view: HTMLElement, params: URLSearchParams): () => void {
  const state = stateFrom(params);
  let etag: string | null = null;
  let shownQuery: string | null = null;
  let request = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  let focusedRow = 0;
  let firstRender = true;

  const search = h('input', { type: 'search', id: 'token-search', placeholder: 'Symbol, name or 0x address', value: state.search, maxlength: 64, autocomplete: 'off', spellcheck: 'false' });
  const secure = h('select', { id: 'token-secure' }, h('option', { value: '' }, 'All tokens'), h('option', { value: 'true' }, 'Secure only'), h('option', { value: 'false' }, 'Not secure'));
  secure.value = state.isSecure;
  const limit = h('select', { id: 'token-limit' }, ...LIMITS.map((n) => h('option', { value: n }, `${n} per page`)));
  limit.value = String(state.limit);
  const headRow = h('tr');
  const body = h('tbody');
  const table = h('table', { class: 'tokens', id: 'token-table', 'aria-busy': 'true', 'aria-label': 'Tokens' }, h('thead', {}, headRow), body);
  const status = h('p', { class: 'table-status', 'aria-live': 'polite' }, 'Loading…');
  const prev = h('button', { type: 'button', id: 'page-prev' }, '← Previous');
  const next = h('button', { type: 'button', id: 'page-next' }, 'Next →');
  const problem = h('div', { class: 'problem-slot' });

  replace(
    view,
    h('h1', {}, 'Tokens'),
    h('div', { class: 'controls' }, h('label', {}, 'Search ', search), h('label', {}, 'Show ', secure), h('label', {}, limit)),
    problem,
    h('div', { class: 'table-scroll' }, table),
    h('nav', { class: 'pager', 'aria-label': 'Pages' }, prev, status, next),
  );
  // Skeleton rows hold the table's height until the first answer (no layout shift).
  replace(body, ...Array.from({ length: Math.min(state.limit, 25) }, () => h('tr', { class: 'skeleton' }, ...columns.map(() => h('td', {}, ' ')))));
  renderHead();

  function renderHead(): void {
    const active = activeOrder(state);
    replace(
      headRow,
      ...columns.map((column) => {
        const sorted = column.sorts.find((s) => 'key' in s && s.key === active.key);
        return h(
          'th',
          { scope: 'col', class: column.numeric ? 'num' : null, 'aria-sort': sorted ? (active.sort === 'asc' ? 'ascending' : 'descending') : null },
          ...column.sorts.map((s) =>
            'key' in s
              ? h('button', { type: 'button', class: 'sort', 'data-order': s.key, 'aria-pressed': s.key === active.key ? 'true' : 'false' }, s.label, s.key === active.key ? (active.sort === 'asc' ? ' ▲' : ' ▼') : '')
              : h('span', {}, s.label),
          ),
        );
      }),
    );
  }

  function writeAddress(): void {
    const q = queryOf(state).toString();
    history.replaceState(null, '', `#/${q ? `?${q}` : ''}`);
  }

  async function load(refresh = false): Promise<void> {
    const mine = ++request;
    const query = queryOf(state);
    table.setAttribute('aria-busy', 'true');
    try {
      const answer = await api.GET('/tokens', {
        params: {
          query: {
            search: state.search.trim() || undefined,
            isSecure: state.isSecure ? state.isSecure === 'true' : undefined,
            order: state.order,
            sort: state.sort,
            page: state.page,
            limit: state.limit,
          },
        },
        // Revalidate with the ETag the browser holds: a 304 (same data version) costs no body.
        cache: 'no-cache',
      });
      if (mine !== request) return;
      const page = dataOf(answer);
      const tag = answer.response.headers.get('etag');
      replace(problem);
      if (refresh && tag && tag === etag && shownQuery === query.toString()) return; // nothing moved
      etag = tag;
      shownQuery = query.toString();
      render(page, query);
    } catch (error) {
      if (mine !== request) return;
      replace(problem, problemBox(error));
      status.textContent = 'The tokens could not be loaded.';
    } finally {
      if (mine === request) {
        table.setAttribute('aria-busy', 'false');
        schedule();
      }
    }
  }

  function schedule(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void load(true), REFRESH_MS);
  }

  function render(page: TokenPage, query: URLSearchParams): void {
    const first = (page.meta.page - 1) * page.meta.limit;
    replace(
      body,
      ...page.data.map((token, i) =>
        h('tr', { 'data-address': token.contractAddress, tabindex: i === Math.min(focusedRow, page.data.length - 1) ? 0 : -1 }, ...columns.map((c) => h('td', { class: c.numeric ? 'num' : null }, c.cell(token, first + i + 1)))),
      ),
    );
    if (page.data.length === 0) replace(body, h('tr', {}, h('td', { colspan: columns.length, class: 'empty' }, 'No token matches.')));
    const pages = Math.min(MAX_PAGE, page.meta.pagesCount);
    status.textContent = `Page ${page.meta.page} of ${Math.max(1, pages)} · ${page.meta.totalItemsCount} tokens`;
    prev.disabled = page.meta.page <= 1;
    next.disabled = page.meta.page >= pages;
    table.dataset.query = query.toString();
    table.dataset.state = 'ready';
    if (firstRender) {
      firstRender = false;
      performance.mark('explorer:table-rendered');
    }
  }

  function change(update: Partial<State>): void {
    Object.assign(state, update);
    writeAddress();
    renderHead();
    void load();
  }

  headRow.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button.sort');
    if (!button) return;
    const key = button.dataset.order as OrderColumn;
    const active = activeOrder(state);
    // A new column starts descending (largest first); the same column again flips the direction.
    change({ order: key, sort: active.key === key ? (active.sort === 'desc' ? 'asc' : 'desc') : 'desc', page: 1 });
    headRow.querySelector<HTMLButtonElement>(`button[data-order="${key}"]`)?.focus();
  });
  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => change({ search: search.value, page: 1 }), 300);
  });
  secure.addEventListener('change', () => change({ isSecure: secure.value as State['isSecure'], page: 1 }));
  limit.addEventListener('change', () => change({ limit: Number(limit.value), page: 1 }));
  prev.addEventListener('click', () => change({ page: Math.max(1, state.page - 1) }));
  next.addEventListener('click', () => change({ page: Math.min(MAX_PAGE, state.page + 1) }));
  body.addEventListener('keydown', (event) => {
    const rows = [...body.querySelectorAll<HTMLTableRowElement>('tr[data-address]')];
    const at = rows.indexOf((event.target as Element).closest('tr') as HTMLTableRowElement);
    if (at < 0) return;
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[event.key];
    if (event.key === 'Enter') {
      location.hash = `#/token/${rows[at]!.dataset.address}`;
    } else if (to !== undefined) {
      event.preventDefault();
      const target = rows[Math.max(0, Math.min(rows.length - 1, to))]!;
      rows[at]!.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
      focusedRow = rows.indexOf(target);
    }
  });
  body.addEventListener('click', (event) => {
    const row = (event.target as Element).closest<HTMLTableRowElement>('tr[data-address]');
    if (row && !(event.target as Element).closest('a, .badge')) location.hash = `#/token/${row.dataset.address}`;
  });

  void load();
  return () => {
    request += 1;
    clearTimeout(timer);
    clearTimeout(searchTimer);
  };
}
