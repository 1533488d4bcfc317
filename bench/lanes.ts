// `npm run bench:lanes`: what the fast lane buys per operation on uncached reads, the measure
// that decides which operations it answers (src/api/operations/operationAnswers.ts):
//   tsx bench/lanes.ts [--duration S (5)] [--tokens N (24000)] [--operations id,...] [--dir DIR]
// One `npm run serve` process (PGlite, a supply configuration, the bench's catalogue) and, per
// operation, distinct URLs sent as the lane reads them and the same URLs with one character
// percent-encoded, which the lane leaves to Express (same answer, never cached under the other
// form): lane, Express, Express, lane, 50 connections each. Prints req/s and p99 of both, the
// lane's gain (the mean of each side's two runs) and the response cache's hit ratio (near 0:
// the reads are uncached).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationId } from '../generated/openapi/operations.ts';
import { operationIds } from '../src/spec/operationTable.ts';
import { createPrng } from '../src/demo/prng.ts';
import { createDatabase } from '../src/db/index.ts';
import { buildCatalogue, candleTokenOf, writeCatalogue } from './lib/catalogue.ts';
import { argValue } from './lib/cliArgs.ts';
import { limiterEnv } from './lib/limiter.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { startChainNode, startService } from './lib/processes.ts';
import { expressForm } from '../test/helpers/operationUrls.ts';

const dir = argValue('--dir') ?? join(tmpdir(), 'bench-lanes');
const tokens = Number(argValue('--tokens') ?? 24_000);
const durationSec = Number(argValue('--duration') ?? 5);
const wanted = argValue('--operations')?.split(',') ?? [...operationIds];
const seed = 59144;
const rng = createPrng(seed ^ 0x1a9e);


const pick = <T>(items: readonly T[]) => items[Math.floor(rng.next() * items.length)]!;
const between = (min: number, max: number) => min + Math.floor(rng.next() * (max - min + 1));

const node = await startChainNode({ hours: 3, seed });
const now = new Date();
const catalogue = buildCatalogue({ count: tokens, seed, now });
const pgliteDir = join(dir, `pglite-${tokens}-${now.toISOString().slice(0, 13)}`);
if (!existsSync(pgliteDir)) {
  mkdirSync(dir, { recursive: true });
  const db = await createDatabase({ pgliteDir });
  await writeCatalogue(db, catalogue, { count: tokens, seed, now });
  await db.close();
}
const history = candleTokenOf(catalogue, { count: tokens, seed, now })!;
const net = node.info.deployment.networkToken;
const supplyConfig = join(dir, 'supply.json');
writeFileSync(supplyConfig, JSON.stringify({ source: { kind: 'totalSupply' }, blockTag: 'latest', excludedWallets: [{ address: net.treasury, label: 'Treasury' }] }));
const fiveMinutes = 300_000;
const historyFrom = Date.parse(history.from);
const historyTo = Date.parse(history.to);
const timeIn = (from: number, to: number) => new Date(Math.floor((from + rng.next() * (to - from)) / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** Distinct uncached URLs of each operation, as the varied bench cases draw them. */
const urls: Record<OperationId, () => string> = {
  listTokens: () => `/tokens?page=${between(1, 50)}&limit=${between(1, 100)}`,
  getToken: () => `/tokens/${pick(catalogue.addresses)}`,
  listTokenPools: () => `/tokens/${pick(catalogue.addresses)}/pools?limit=${between(1, 100)}`,
  getTokenPriceHistory: () => `/prices/${pick(catalogue.priced)}`,
  listPriceHistories: () => `/prices?addresses=${Array.from({ length: 20 }, () => pick(catalogue.priced)).join(',')}`,
  getTokenCandles: () => {
    const from = historyFrom + between(0, 900) * fiveMinutes;
    return `/prices/${history.address}/candles?interval=5m&from=${new Date(from).toISOString()}&to=${new Date(from + between(10, 99) * fiveMinutes).toISOString()}`;
  },
  getTokenPriceAt: () => `/prices/${history.address}/at?time=${timeIn(historyFrom, historyTo)}`,
  getTotalSupply: () => `/supply/total?contractAddress=${net.address}&format=${pick(['raw', 'json'])}`,
  getCirculatingSupply: () => `/supply/circulating?contractAddress=${net.address}&format=${pick(['raw', 'json'])}`,
};

const service = await startService({
  mode: 'serve',
  logFile: join(dir, 'service.log'),
  env: {
    NODE_ENV: 'production', LOG_LEVEL: 'info', VALIDATE_RESPONSES: 'false', CHAIN_RPC_URL: node.info.url, PGLITE_DIR: pgliteDir,
    NETWORK_TOKEN_ADDRESS: net.address, SUPPLY_CONFIG: supplyConfig, ...limiterEnv.off,
  },
});
/** The response cache's hits and lookups so far (/metrics). */
async function cacheLookups(): Promise<{ hits: number; lookups: number }> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const count = (result: string) => Number(new RegExp(`^cache_lookups_total\\{cache="response",result="${result}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { hits: count('hit'), lookups: count('hit') + count('miss') };
}
let hits = 0;
let lookups = 0;
async function run(form: (url: string) => string, id: OperationId): Promise<LoadResult> {
  const before = await cacheLookups();
  const result = await runLoad({ origin: service.url, next: () => ({ path: form(urls[id]()) }), connections: 50, durationSec });
  const after = await cacheLookups();
  hits += after.hits - before.hits;
  lookups += after.lookups - before.lookups;
  return result;
}
try {
  console.log(`| operation | lane req/s | Express req/s | lane ÷ Express | lane p99 ms | Express p99 ms | non-2xx | cache hits |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
  for (const id of operationIds.filter((o) => wanted.includes(o))) {
    await run((u) => u, id); // warm-up, not recorded
    hits = 0;
    lookups = 0;
    const lane1 = await run((u) => u, id);
    const toExpress = (url: string) => expressForm(url) ?? url;
    const express1 = await run(toExpress, id);
    const express2 = await run(toExpress, id);
    const lane2 = await run((u) => u, id);
    const mean = (a: LoadResult, b: LoadResult, key: 'rps' | 'p99Ms') => (a[key] + b[key]) / 2;
    const lane = mean(lane1, lane2, 'rps');
    const express = mean(express1, express2, 'rps');
    const non2xx = [lane1, lane2, express1, express2].reduce((n, r) => n + r.non2xx, 0);
    const hitRatio = lookups ? `${((hits / lookups) * 100).toFixed(1)} %` : 'not cached';
    console.log(`| ${id} | ${Math.round(lane)} | ${Math.round(express)} | ${(lane / express).toFixed(2)}× | ${mean(lane1, lane2, 'p99Ms').toFixed(1)} | ${mean(express1, express2, 'p99Ms').toFixed(1)} | ${non2xx} | ${hitRatio} |`);
  }
} finally {
  await service.stop();
  await node.stop();
}
process.exit(0);
