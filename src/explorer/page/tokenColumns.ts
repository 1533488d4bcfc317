// The token table's columns: every column GET /tokens orders by has a sort button in some
// header (a header may hold two, e.g. Token: symbol and name).
import type { OrderColumn, Token } from '../../client/index.ts';
import { h } from './dom.ts';
import { formatInteger, formatPercent, formatPrice, formatTime, formatUnits, formatUsd, shortAddress, trend } from './format.ts';
import { flagBadges, tokenLogo } from './tokenBits.ts';

export type Column = {
  /** The header's text for each order column it sorts by (the first is the header's name). */
  sorts: { key: OrderColumn; label: string }[] | { label: string }[];
  numeric?: boolean;
  cell: (token: Token, rank: number) => Node | string;
};

const change = (value: number | null) => h('span', { class: `change ${trend(value)}` }, formatPercent(value));

export const columns: Column[] = [
  { sorts: [{ label: '#' }], numeric: true, cell: (_t, rank) => String(rank) },
  {
    sorts: [{ key: 'symbol', label: 'Symbol' }, { key: 'name', label: 'Name' }],
    cell: (t) =>
      h('a', { href: `#/token/${t.contractAddress}`, class: 'token-link', tabindex: -1 }, tokenLogo(t), h('span', { class: 'symbol' }, t.symbol), h('span', { class: 'name' }, t.name)),
  },
  { sorts: [{ key: 'currentPrice', label: 'Price' }], numeric: true, cell: (t) => formatPrice(t.currentPrice) },
  { sorts: [{ key: 'priceChange1h', label: '1 h' }], numeric: true, cell: (t) => change(t.info.priceChange.h1) },
  { sorts: [{ key: 'last24hVariation', label: '24 h' }, { key: 'last24hVariationAbsolute', label: '|24 h|' }], numeric: true, cell: (t) => change(t.last24hVariation) },
  { sorts: [{ key: 'priceChange7d', label: '7 d' }], numeric: true, cell: (t) => change(t.info.priceChange.d7) },
  { sorts: [{ key: 'marketCap', label: 'Market cap' }], numeric: true, cell: (t) => formatUsd(t.info.marketCap) },
  { sorts: [{ key: 'fdv', label: 'FDV' }], numeric: true, cell: (t) => formatUsd(t.info.fdv) },
  { sorts: [{ key: 'liquidity', label: 'Liquidity' }], numeric: true, cell: (t) => formatUsd(t.info.liquidity) },
  { sorts: [{ key: 'volume24h', label: 'Volume 24 h' }], numeric: true, cell: (t) => formatUsd(t.info.volume24h) },
  { sorts: [{ key: 'swaps', label: 'Swaps' }], numeric: true, cell: (t) => formatInteger(t.info.swaps) },
  { sorts: [{ key: 'buys', label: 'Buys' }], numeric: true, cell: (t) => formatInteger(t.info.buys) },
  { sorts: [{ key: 'sells', label: 'Sells' }], numeric: true, cell: (t) => formatInteger(t.info.sells) },
  { sorts: [{ key: 'securityScore', label: 'Security' }, { key: 'isPossibleSpam', label: 'Spam' }], cell: (t) => flagBadges(t) },
  { sorts: [{ key: 'totalSupply', label: 'Total supply' }], numeric: true, cell: (t) => formatUnits(t.info.totalSupply, t.decimals) },
  { sorts: [{ key: 'decimals', label: 'Decimals' }], numeric: true, cell: (t) => String(t.decimals) },
  { sorts: [{ key: 'contractAddress', label: 'Address' }], cell: (t) => h('code', { title: t.contractAddress }, shortAddress(t.contractAddress)) },
  { sorts: [{ key: 'priceUpdatedAt', label: 'Priced at' }], cell: (t) => formatTime(t.priceUpdatedAt) },
  { sorts: [{ key: 'createdAt', label: 'Created' }], cell: (t) => formatTime(t.createdAt) },
  { sorts: [{ key: 'updatedAt', label: 'Updated' }], cell: (t) => formatTime(t.updatedAt) },
];
