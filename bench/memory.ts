// Memory and start-up of `npm run serve` on a seeded PGlite catalogue (bench/seedCatalogue.ts):
// time to healthy, RSS / heap at ready, after a burst of distinct requests, and the peak (VmHWM).
//   npx tsx bench/memory.ts --dir /tmp/cat100k --tokens 100000 [--requests 3000] [--snapshot]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalogue } from './lib/catalogue.ts';
import { startService } from './lib/processes.ts';
import { createPrng } from '../src/demo/prng.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const dir = arg('dir', '');
const count = Number(arg('tokens', '24000'));
const requests = Number(arg('requests', '3000'));
const seed = Number(arg('seed', '59144'));
if (!dir) throw new Error('--dir DIR (a catalogue written by bench/seedCatalogue.ts) is required');

const logFile = join(arg('log', '/tmp'), `memory-${process.pid}.log`);
const started = performance.now();
const service = await startService({
  mode: 'serve', logFile, readyTimeoutMs: 600_000,
  env: { PGLITE_DIR: dir, CHAIN_RPC_URL: process.env.CHAIN_RPC_URL ?? 'http://127.0.0.1:9', CHAIN_RPC_REQUESTS_PER_SECOND: '0', NODE_ENV: 'production', LOG_LEVEL: 'info', VALIDATE_RESPONSES: 'false', RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', ...(process.env.SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS } : {}) },
});
const healthyMs = performance.now() - started;
const readyLine = readFileSync(logFile, 'utf8').split('\n').reverse().find((l) => l.includes('"token API ready"'));
const readyInMs = readyLine ? (JSON.parse(readyLine) as { readyInMs?: number }).readyInMs : undefined;

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
async function metrics(): Promise<Record<string, number>> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  const m = service.memory();
  return {
    rssMb: mb(gauge('process_resident_memory_bytes')), heapUsedMb: mb(gauge('nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(gauge('nodejs_heap_size_total_bytes')), externalMb: mb(gauge('nodejs_external_memory_bytes')),
    peakRssMb: m ? Math.round(m.peakRssKb / 102.4) / 10 : NaN,
  };
}
const atReady = await metrics();

// A burst of distinct requests: list pages of every order, single tokens, 100 addresses, histories.
const { addresses, priced } = buildCatalogue({ count, seed, now: new Date() });
const rng = createPrng(seed ^ 0x3e3);
const pick = (list: string[]) => list[Math.floor(rng.next() * list.length)]!;
const orders = ['fdv', 'marketCap', 'last24hVariation', 'last24hVariationAbsolute', 'swaps', 'createdAt', 'name', 'totalSupply'];
const urls: string[] = [];
for (let i = 0; i < requests; i++) {
  switch (i % 6) {
    case 0: urls.push(`/tokens?order=${pick(orders)}&sort=${rng.next() < 0.5 ? 'asc' : 'desc'}&page=${1 + Math.floor(rng.next() * 50)}&limit=${1 + Math.floor(rng.next() * 100)}`); break;
    case 1: urls.push(`/tokens/${pick(addresses)}`); break;
    case 2: urls.push(`/tokens?addresses=${Array.from({ length: 100 }, () => pick(addresses)).join(',')}`); break;
    case 3: urls.push(`/prices/${pick(priced)}`); break;
    case 4: urls.push(`/prices?addresses=${Array.from({ length: 20 }, () => pick(priced)).join(',')}`); break;
    default: urls.push(`/tokens?isSecure=true&page=${1 + Math.floor(rng.next() * 20)}&limit=${1 + Math.floor(rng.next() * 100)}`);
  }
}
let failed = 0;
const burstStarted = performance.now();
for (let i = 0; i < urls.length; i += 8) {
  await Promise.all(urls.slice(i, i + 8).map(async (u) => {
    const res = await fetch(`${service.url}${u}`);
    await res.arrayBuffer();
    if (!res.ok && failed++ < 3) console.error(res.status, u.slice(0, 120));
  }));
}
const burstMs = performance.now() - burstStarted;
const afterBurst = await metrics();
/** The process's largest mappings by resident size (kB), from /proc/<pid>/smaps. */
function largestMappings(pid: number): { mapping: string; sizeMb: number; rssMb: number }[] {
  const out: { mapping: string; sizeMb: number; rssMb: number }[] = [];
  let current: { mapping: string; sizeMb: number; rssMb: number } | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { mapping: head[3] || 'anon', sizeMb: Math.round((parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1e5) / 10, rssMb: 0 };
      out.push(current);
    } else if (current && line.startsWith('Rss:')) current.rssMb = Math.round(Number(/\d+/.exec(line)![0]) / 102.4) / 10;
  }
  return out.sort((a, b) => b.rssMb - a.rssMb).slice(0, 8);
}
const mappings = largestMappings(service.pid);
const stopped = await service.stop();
console.log(JSON.stringify({
  tokens: count, healthyMs: Math.round(healthyMs), readyInMs, atReady, requests: urls.length, failed, burstMs: Math.round(burstMs), afterBurst,
  mappings, peakRssMb: stopped.peakRssKb === undefined ? null : Math.round(stopped.peakRssKb / 102.4) / 10, exitCode: stopped.exitCode, logFile,
}));
