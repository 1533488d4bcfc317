// The case generators: hot repeats one URL, varied rotates through many distinct ones, and every
// generated URL stays inside the spec's bounds (page ≤ 1000, limit ≤ 100, ≤ 100 addresses).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCases } from '../../bench/lib/cases.ts';
import { buildCatalogue, candleTokenOf, searchTermsOf } from '../../bench/lib/catalogue.ts';

const catOptions = { count: 2000, seed: 7, now: new Date('2026-01-01T12:03:00Z') };
const catalogue = buildCatalogue(catOptions);
const candles = candleTokenOf(catalogue, catOptions);
const txs = Array.from({ length: 30 }, (_, i) => ({ hash: `0x${i.toString(16).padStart(64, '0')}`, blockNumber: '0x5', index: `0x${i.toString(16)}` }));
const cases = buildCases({ seed: 7, addresses: catalogue.addresses, priced: catalogue.priced, tokenCount: 2000, networkToken: catalogue.addresses[0] ?? '', txs, searchTerms: searchTermsOf(catalogue, 7), candles });

test('the catalogue is deterministic for a seed', () => {
  const again = buildCatalogue(catOptions);
  assert.deepEqual(again.addresses, catalogue.addresses);
  assert.deepEqual(again.tokens[5], catalogue.tokens[5]);
  assert.ok(catalogue.priced.length > 1500 && catalogue.priced.length < 2000);
});

test('hot cases repeat one request, varied cases rotate through distinct ones', () => {
  for (const c of cases) {
    const seen = new Set(Array.from({ length: 200 }, () => JSON.stringify(c.next())));
    if (c.variant === 'varied') assert.ok(seen.size >= 150, `${c.id}: ${seen.size} distinct of 200`);
    else if (c.group !== 'rpc') assert.equal(seen.size, 1, `${c.id} repeats one URL`);
  }
});

test('generated URLs stay inside the spec bounds', () => {
  for (const c of cases.filter((x) => x.group === 'rest')) {
    for (let i = 0; i < 300; i++) {
      const { path } = c.next();
      const u = new URL(path, 'http://x');
      const page = Number(u.searchParams.get('page') ?? 1);
      const limit = Number(u.searchParams.get('limit') ?? 50);
      assert.ok(page >= 1 && page <= 1000 && limit >= 1 && limit <= 100, `${c.id}: ${path.slice(0, 80)}`);
      const addresses = u.searchParams.get('addresses');
      if (addresses !== null) assert.ok(addresses.split(',').length <= 100);
    }
  }
  const deep = cases.find((c) => c.id === 'tokens.deepPage.hot');
  assert.equal(deep?.next().path, '/tokens?page=100&limit=20', 'deep page is the last full page of a small catalogue');
});

test('RPC cases post JSON-RPC bodies; node cases go to the node root', () => {
  const node = cases.find((c) => c.id === 'rpc.byHash.node')?.next();
  assert.equal(node?.path, '/');
  const cached = cases.find((c) => c.id === 'rpc.byBlockAndIndex.cached')?.next();
  assert.equal(cached?.method, 'POST');
  assert.deepEqual(JSON.parse(cached?.body ?? '{}').method, 'eth_getTransactionByBlockNumberAndIndex');
});

test('the candles case asks for 1,000 five-minute candles of one token; price-at times fall in its history', () => {
  const SECONDS = { '5m': 300, '15m': 900, '1h': 3600, '4h': 14_400, '1d': 86_400 } as Record<string, number>;
  const count = (path: string) => {
    const u = new URL(path, 'http://x');
    const step = SECONDS[u.searchParams.get('interval')!]! * 1000;
    const floor = (t: string) => Math.floor(Date.parse(t) / step) * step;
    return (floor(u.searchParams.get('to')!) - floor(u.searchParams.get('from')!)) / step + 1;
  };
  const hot = cases.find((c) => c.id === 'candles.fiveMinutes.hot')!.next().path;
  assert.equal(count(hot), 1000);
  assert.ok(hot.startsWith(`/prices/${candles!.address}/candles?interval=5m&`));
  assert.ok(Date.parse(new URL(hot, 'http://x').searchParams.get('to')!) < catOptions.now.getTime(), 'the range ends before now: the same 1,000 candles all run long');
  const first = Date.parse(candles!.from);
  for (const id of ['prices.at.hot', 'prices.at.varied']) {
    const time = Date.parse(new URL(cases.find((c) => c.id === id)!.next().path, 'http://x').searchParams.get('time')!);
    assert.ok(time >= first && time < catOptions.now.getTime(), id);
  }
});
