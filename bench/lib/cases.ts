// The measured cases: each names the process it targets and a request generator. "hot" repeats
// one URL (the response cache answers after the first request); "varied" rotates through many
// distinct URLs so most requests take the uncached path (validation, SQL, serialisation).
import type { Prng } from '../../src/demo/prng.ts';
import { createPrng } from '../../src/demo/prng.ts';
import type { TxRef } from './chainProcess.ts';
import type { LimiterSide } from './limiter.ts';
import type { RequestSpec } from './load.ts';

export type Target = 'service' | 'limiterPair' | 'uncachedRpc' | 'node';

export type CaseDef = {
  id: string;
  group: 'rest' | 'supply' | 'rpc';
  label: string;
  variant: 'hot' | 'varied' | 'cached' | 'uncached' | 'node' | 'limiter off' | 'limiter on';
  /** limiterPair cases: which side of the off/on pair. */
  limiter?: LimiterSide;
  target: Target;
  /** An example request, for the report. */
  example: string;
  next: () => RequestSpec;
  /** Part of --quick. */
  quick: boolean;
};

export type CaseInputs = {
  seed: number;
  addresses: readonly string[];
  priced: readonly string[];
  tokenCount: number;
  networkToken: string;
  txs: readonly TxRef[];
  /** Search terms drawn from the catalogue (searchTermsOf). */
  searchTerms: readonly string[];
  /** The catalogue's token with a long history (candleTokenOf): candles and price-at cases. */
  candles?: { address: string; from: string; to: string; times: readonly string[] };
};

const ORDERS = [
  'name', 'symbol', 'decimals', 'contractAddress', 'currentPrice', 'priceUpdatedAt', 'createdAt', 'updatedAt',
  'last24hVariation', 'last24hVariationAbsolute', 'sells', 'buys', 'swaps', 'isPossibleSpam', 'totalSupply', 'fdv',
] as const;

function shuffle<T>(items: T[], rng: Prng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** Cycles through `items` (shared by all connections of a run). */
function cycle<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}

const get = (path: string): RequestSpec => ({ path });
const fixed = (path: string) => () => get(path);
const anyCase = (a: string, rng: Prng) => (rng.next() < 0.5 ? a.toLowerCase() : a);

/** Every (page, limit) pair with at least one row, times the given query variants, shuffled. */
function pagesOf(variants: string[], pages: [number, number], limits: [number, number], total: number, rng: Prng): string[] {
  const out: string[] = [];
  for (let limit = limits[0]; limit <= limits[1]; limit++)
    for (let page = pages[0]; page <= pages[1] && (page - 1) * limit < total; page++)
      for (const v of variants) out.push(`/tokens?${v}${v ? '&' : ''}page=${page}&limit=${limit}`);
  return shuffle(out, rng);
}

function sample<T>(items: readonly T[], n: number, rng: Prng): T[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(n, items.length)) picked.add(Math.floor(rng.next() * items.length));
  return [...picked].map((i) => items[i] as T);
}

const rpcBody = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

export function buildCases(input: CaseInputs): CaseDef[] {
  const rng = createPrng(input.seed ^ 0xca5e);
  const n = input.tokenCount;
  const first = input.addresses[0] ?? '';
  const firstPriced = input.priced[0] ?? first;
  const hot100 = sample(input.addresses, 100, rng).join(',');
  const hot20 = sample(input.priced, 20, rng).join(',');
  const shuffledAddresses = shuffle([...input.addresses], rng);
  const shuffledPriced = shuffle([...input.priced], rng);
  const secureCount = Math.max(1, Math.round(n / 2));
  const allOrders = ORDERS.flatMap((o) => [`order=${o}&sort=asc`, `order=${o}&sort=desc`]);
  const deepPage = Math.min(1000, Math.floor((n - 1) / 20) + 1);

  const rest: CaseDef[] = [];
  const pair = (
    id: string,
    label: string,
    hotPath: string,
    varied: () => () => RequestSpec,
    variedExample: string,
    quickVaried: boolean,
  ) => {
    rest.push({ id: `${id}.hot`, group: 'rest', label, variant: 'hot', target: 'service', example: hotPath, next: fixed(hotPath), quick: true });
    rest.push({ id: `${id}.varied`, group: 'rest', label, variant: 'varied', target: 'service', example: variedExample, next: varied(), quick: quickVaried });
  };

  pair('tokens.default', 'Token list, default (fdv desc, 50 per page)', '/tokens',
    () => cycle(pagesOf(['', 'order=fdv&sort=desc'], [1, 50], [1, 100], n, rng).map(get)),
    '/tokens?page=1..50&limit=1..100', true);
  pair('tokens.movers', 'Top movers (last24hVariationAbsolute desc)', '/tokens?order=last24hVariationAbsolute&sort=desc',
    () => cycle(pagesOf(['order=last24hVariationAbsolute&sort=desc', 'sort=desc&order=last24hVariationAbsolute'], [1, 50], [1, 100], n, rng).map(get)),
    '/tokens?order=last24hVariationAbsolute&sort=desc&page=1..50&limit=1..100', false);
  pair('tokens.fdvSecure', 'fdv asc, secure only', '/tokens?order=fdv&sort=asc&isSecure=true',
    () => cycle(pagesOf(['order=fdv&sort=asc&isSecure=true', 'isSecure=true&order=fdv&sort=asc'], [1, 50], [1, 100], secureCount, rng).map(get)),
    '/tokens?order=fdv&sort=asc&isSecure=true&page=1..50&limit=1..100', false);
  pair('tokens.deepPage', `Deep page (page=${deepPage}&limit=20)`, `/tokens?page=${deepPage}&limit=20`,
    () => cycle(pagesOf(allOrders, [Math.max(1, deepPage - 200), deepPage], [18, 23], n, rng).map(get)),
    `/tokens?order=<any>&sort=<any>&page=${Math.max(1, deepPage - 200)}..${deepPage}&limit=18..23`, true);
  pair('tokens.addresses100', 'addresses filter, 100 addresses', `/tokens?addresses=${hot100}&limit=100`,
    () => () => get(`/tokens?addresses=${sample(input.addresses, 100, rng).map((a) => anyCase(a, rng)).join(',')}&limit=100`),
    '/tokens?addresses=<100 random>&limit=100', true);
  pair('tokens.one', 'One token by address', `/tokens/${first}`,
    () => { const next = cycle(shuffledAddresses); return () => get(`/tokens/${anyCase(next(), rng)}`); },
    '/tokens/<each address in turn>', false);
  pair('tokens.search', 'Search by symbol, name or address', `/tokens?search=${encodeURIComponent(input.searchTerms[0] ?? 'a')}`,
    () => { const next = cycle(input.searchTerms); return () => get(`/tokens?search=${encodeURIComponent(next())}`); },
    '/tokens?search=<symbol prefix | name word | 0x address prefix>', true);
  pair('prices.one', 'Price history, one token', `/prices/${firstPriced}`,
    () => { const next = cycle(shuffledPriced); return () => get(`/prices/${anyCase(next(), rng)}`); },
    '/prices/<each priced address in turn>', false);
  pair('prices.many20', 'Price histories, 20 addresses', `/prices?addresses=${hot20}`,
    () => () => get(`/prices?addresses=${sample(input.priced, 20, rng).join(',')}`),
    '/prices?addresses=<20 random>', true);

  const history = input.candles;
  if (history) {
    // One URL, as the case: an uncached answer of 1,000 candles reads 1,000 rows (several ms),
    // so distinct ranges at 50 connections would measure the database, not the API (docs/candles.md).
    const candles = `/prices/${history.address}/candles?interval=5m&from=${history.from}&to=${history.to}`;
    rest.push({ id: 'candles.fiveMinutes.hot', group: 'rest', label: 'Candles, one token, 1,000 five-minute intervals', variant: 'hot', target: 'service', example: candles, next: fixed(candles), quick: false });
    const at = `/prices/${history.address}/at?time=${history.times[500]}`;
    pair('prices.at', 'Price at a time, one token', at,
      () => { const next = cycle(shuffle([...history.times], rng)); return () => get(`/prices/${history.address}/at?time=${next()}`); },
      '/prices/<token>/at?time=<each of 1,000 times in its history>', false);
  }

  const supply: CaseDef[] = (['total', 'circulating'] as const).flatMap((kind) =>
    (['raw', 'json'] as const).map((format) => {
      const path = `/supply/${kind}?contractAddress=${input.networkToken}&format=${format}`;
      return { id: `supply.${kind}.${format}`, group: 'supply' as const, label: `Supply ${kind}, format=${format}`, variant: 'hot' as const, target: 'service' as const, example: path, next: fixed(path), quick: format === 'raw' || kind === 'circulating' };
    }),
  );

  const byHash = () => cycle(input.txs.map((t) => ({ path: '/rpc', method: 'POST' as const, body: rpcBody('eth_getTransactionByHash', [t.hash]) })));
  const byIndex = () => cycle(input.txs.map((t) => ({ path: '/rpc', method: 'POST' as const, body: rpcBody('eth_getTransactionByBlockNumberAndIndex', [t.blockNumber, t.index]) })));
  const nodeSpec = (f: () => () => RequestSpec) => () => { const next = f(); return () => ({ ...next(), path: '/' }); };
  const rpc: CaseDef[] = [];
  for (const [method, gen] of [['eth_getTransactionByHash', byHash], ['eth_getTransactionByBlockNumberAndIndex', byIndex]] as const) {
    const short = method === 'eth_getTransactionByHash' ? 'byHash' : 'byBlockAndIndex';
    const example = `POST /rpc ${method} (${input.txs.length} mined txs in turn)`;
    rpc.push({ id: `rpc.${short}.cached`, group: 'rpc', label: `${method}, cached`, variant: 'cached', target: 'service', example, next: gen(), quick: true });
    rpc.push({ id: `rpc.${short}.uncached`, group: 'rpc', label: `${method}, uncached (RPC_CACHE_SIZE=0)`, variant: 'uncached', target: 'uncachedRpc', example, next: gen(), quick: true });
    rpc.push({ id: `rpc.${short}.node`, group: 'rpc', label: `${method}, node directly`, variant: 'node', target: 'node', example: `POST <node> ${method}`, next: nodeSpec(gen)(), quick: true });
  }

  // The limiter's cost: both sides on fresh processes started the same way, alternated (bench/lib/limiter.ts).
  const limiter: CaseDef[] = (['off', 'on'] as const).map((side) => ({
    id: `tokens.default.limiter${side === 'off' ? 'Off' : 'On'}`, group: 'rest', variant: `limiter ${side}`, limiter: side,
    label: `Token list, default, fresh process, rate limiter ${side === 'off' ? 'off (0/s, 0/min)' : 'on (10^6/s, 6·10^7/min, never triggers)'}`,
    target: 'limiterPair', example: '/tokens', next: fixed('/tokens'), quick: true,
  }));
  return [...rest, ...supply, ...rpc, ...limiter];
}

/** Generators for the one-connection latency probes (added latency over the node). */
export function probeGenerators(txs: readonly TxRef[]) {
  const byHash = txs.map((t) => rpcBody('eth_getTransactionByHash', [t.hash]));
  const byIndex = txs.map((t) => rpcBody('eth_getTransactionByBlockNumberAndIndex', [t.blockNumber, t.index]));
  return {
    byHash: (path: string) => { const next = cycle(byHash); return () => ({ path, method: 'POST' as const, body: next() }); },
    byBlockAndIndex: (path: string) => { const next = cycle(byIndex); return () => ({ path, method: 'POST' as const, body: next() }); },
  };
}
