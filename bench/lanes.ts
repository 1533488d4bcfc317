// `npm run bench:lanes`: what the fast lane buys per operation on uncached reads, the measure
// that decides which operations it answers (src/api/operations/operationAnswers.ts):
//   tsx bench/lanes.ts [--duration S (5)] [--tokens N (24000)] [--operations id,...] [--dir DIR]
// One `npm run serve` process (PGlite, a supply configuration, the bench's catalogue) and, per
// operation, distinct URLs sent as the lane reads them and the same URLs with one character
// percent-encoded, which the lane leaves to Express (same answer, never cached under the other
// form): lane, Express, Express, lane, 50 connections each. Prints req/s and p99 of both and
// the lane's gain (the mean of each side's two runs).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationId } from '../generated/openapi/operations.ts';
import { operationIds } from '../src/spec/operationTable.ts';
import { createPrng } from '../src/demo/prng.ts';
import { createDatabase } from '../src/db/index.ts';
import { buildCatalogue, candleTokenOf, writeCatalogue } from './lib/catalogue.ts';
import { limiterEnv } from './lib/limiter.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { startChainNode, startService } from './lib/processes.ts';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dir = arg('--dir') ?? join(tmpdir(), 'bench-lanes');
const tokens = Number(arg('--tokens') ?? 24_000);
const durationSec = Number(arg('--duration') ?? 5);
const wanted = arg('--operations')?.split(',') ?? [...operationIds];
const seed = 59144;
const rng = createPrng(seed ^ 0x1a9e);

/** The same request target with one character percent-encoded: the first of the first query value, or of the last path segment's hex digits. */
export function expressForm(url: string): string {
  const eq = url.indexOf('=');
  const at = eq >= 0 ? eq + 1 : url.lastIndexOf('/0x') + 3;
  return `${url.slice(0, at)}%${url.charCodeAt(at).toString(16).toUpperCase()}${url.slice(at + 1)}`;
}

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
  getTokenPriceAt: () => `/prices/${history.address}/at?time=${pick(history.times)}`,
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
const run = (form: (url: string) => string, id: OperationId): Promise<LoadResult> =>
  runLoad({ origin: service.url, next: () => ({ path: form(urls[id]()) }), connections: 50, durationSec });
try {
  console.log(`| operation | lane req/s | Express req/s | lane ÷ Express | lane p99 ms | Express p99 ms | non-2xx |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: |`);
  for (const id of operationIds.filter((o) => wanted.includes(o))) {
    await run((u) => u, id); // warm-up, not recorded
    const lane1 = await run((u) => u, id);
    const express1 = await run(expressForm, id);
    const express2 = await run(expressForm, id);
    const lane2 = await run((u) => u, id);
    const mean = (a: LoadResult, b: LoadResult, key: 'rps' | 'p99Ms') => (a[key] + b[key]) / 2;
    const lane = mean(lane1, lane2, 'rps');
    const express = mean(express1, express2, 'rps');
    const non2xx = [lane1, lane2, express1, express2].reduce((n, r) => n + r.non2xx, 0);
    console.log(`| ${id} | ${Math.round(lane)} | ${Math.round(express)} | ${(lane / express).toFixed(2)}× | ${mean(lane1, lane2, 'p99Ms').toFixed(1)} | ${mean(express1, express2, 'p99Ms').toFixed(1)} | ${non2xx} |`);
  }
} finally {
  await service.stop();
  await node.stop();
}
process.exit(0);
