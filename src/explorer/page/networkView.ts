// The network token (#/network): total supply after burn and circulating supply with the
// excluded wallets, from GET /supply/total and GET /supply/circulating (format=json, exact
// amounts). Requests: 2 when the view opens, then 2 every REFRESH_MS (conditional): 4 a minute.
// The page checks the endpoints' invariant itself, in base units (BigInt, exact):
// circulating = total − the excluded wallets' sum.
import type { CirculatingSupply, TotalSupply } from '../../client/index.ts';
import { api, dataOf, problemBox } from './api.ts';
import { h, replace } from './dom.ts';
import { formatTime, formatUnits } from './format.ts';

const REFRESH_MS = 30_000;

export function mountNetworkView(view: HTMLElement, networkToken: string): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const problem = h('div', { class: 'problem-slot' });
  const body = h('div', { id: 'supply', class: 'supply' }, h('p', { class: 'loading' }, 'Loading…'));
  replace(view, h('p', {}, h('a', { href: '#/' }, '← All tokens')), h('h1', {}, 'Network token supply'), problem, body);
  if (!networkToken) {
    replace(body, h('p', {}, 'This service serves no network token supply (NETWORK_TOKEN_ADDRESS is not set).'));
    return () => undefined;
  }
  const query = { contractAddress: networkToken, format: 'json' as const };

  async function load(): Promise<void> {
    try {
      // Both answers are JSON with format=json (the client's default parser reads them).
      const total = dataOf(await api.GET('/supply/total', { params: { query }, cache: 'no-cache' })) as TotalSupply;
      const circulating = dataOf(await api.GET('/supply/circulating', { params: { query }, cache: 'no-cache' })) as CirculatingSupply;
      if (stopped) return;
      replace(problem);
      render(total, circulating);
    } catch (error) {
      if (!stopped) replace(problem, problemBox(error));
    } finally {
      if (!stopped) timer = setTimeout(() => void load(), REFRESH_MS);
    }
  }

  function render(total: TotalSupply, c: CirculatingSupply): void {
    const units = (baseUnits: string) => formatUnits(baseUnits, c.decimals);
    const symbol = c.symbol ?? '';
    const holds = BigInt(c.totalSupply.baseUnits) - BigInt(c.excluded.sum.baseUnits) === BigInt(c.circulatingSupply.baseUnits);
    const row = (label: string, baseUnits: string, attrs: Record<string, string> = {}) =>
      h('tr', attrs, h('th', { scope: 'row' }, label), h('td', { class: 'num', 'data-base-units': baseUnits }, `${units(baseUnits)} ${symbol}`));
    replace(
      body,
      h('p', {}, h('a', { href: `#/token/${c.contractAddress}` }, `${symbol || 'Token'} `, h('code', {}, c.contractAddress)), ` · read at block ${c.blockNumber} (${formatTime(c.blockTimestamp)})`, c.stale ? ' · stale: the node did not answer' : ''),
      h(
        'table',
        { class: 'supply-table', id: 'supply-table' },
        h(
          'tbody',
          {},
          row(`Supply from ${total.source.method}`, total.sourceSupply.baseUnits),
          ...total.burned.wallets.map((w) => row(`− burned at ${w.label} (${w.address.slice(0, 10)}…)`, w.balance.baseUnits, { class: 'sub' })),
          row('Total supply (after burn)', c.totalSupply.baseUnits, { id: 'supply-total' }),
          ...c.excluded.wallets.map((w) => row(`− ${w.label} (${w.address.slice(0, 10)}…)`, w.balance.baseUnits, { class: 'sub excluded', 'data-address': w.address })),
          row('Excluded wallets, sum', c.excluded.sum.baseUnits, { id: 'supply-excluded' }),
          row('Circulating supply', c.circulatingSupply.baseUnits, { id: 'supply-circulating' }),
        ),
      ),
      h('p', { id: 'supply-invariant', class: holds ? 'ok' : 'bad', 'data-holds': String(holds) }, holds ? '✓ circulating = total − excluded (exact)' : '✗ circulating ≠ total − excluded'),
    );
  }

  void load();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
