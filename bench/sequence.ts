// One long-lived service under a sequence of cases, for A/B measurements of one change:
//   tsx bench/sequence.ts --cases base,tokens.default.varied,tokens.addresses100.hot,… [--duration S (5)]
//                         [--tokens N (24000)] [--dir DIR (os tmpdir/bench-sequence)]
// Unlike bench/run.ts (a fresh, complete run), it keeps one `npm run serve` process across the
// cases, as a busy API process lives, and prints req/s, p50, p99 and the process's RSS and peak
// RSS after each case; `base` runs the bare node:http baseline. The catalogue is written once
// per --tokens into --dir and reused. Service environment: set it on the command line (e.g.
// `RESPONSE_CACHE_MB=16 tsx bench/sequence.ts …`; node flags as SERVICE_NODE_OPTIONS, since
// NODE_OPTIONS itself is kept from the service); run A, change, run B.
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../src/db/index.ts';
import { buildCases } from './lib/cases.ts';
import { buildCatalogue, searchTermsOf, writeCatalogue } from './lib/catalogue.ts';
import { argValue } from './lib/cliArgs.ts';
import { limiterEnv } from './lib/limiter.ts';
import { runLoad } from './lib/load.ts';
import { startBaselineServer, startChainNode, startService } from './lib/processes.ts';

const dir = argValue('--dir') ?? join(tmpdir(), 'bench-sequence');
const tokens = Number(argValue('--tokens') ?? 24_000);
const durationSec = Number(argValue('--duration') ?? 5);
const wanted = (argValue('--cases') ?? 'base,tokens.default.hot,tokens.default.varied').split(',');
const seed = 59144;

const node = await startChainNode({ hours: 3, seed });
const service = await (async () => {
  const now = new Date();
  const catalogue = buildCatalogue({ count: tokens, seed, now });
  const pgliteDir = join(dir, `pglite-${tokens}`);
  if (!existsSync(pgliteDir)) {
    mkdirSync(dir, { recursive: true });
    const db = await createDatabase({ pgliteDir });
    await writeCatalogue(db, catalogue, { count: tokens, seed, now });
    await db.close();
  }
  const cases = buildCases({ seed, addresses: catalogue.addresses, priced: catalogue.priced, tokenCount: tokens, networkToken: node.info.deployment.networkToken.address, txs: node.info.txs, searchTerms: searchTermsOf(catalogue, seed) });
  const svc = await startService({
    mode: 'serve',
    logFile: join(dir, 'service.log'),
    env: {
      NODE_ENV: 'production', LOG_LEVEL: 'info', VALIDATE_RESPONSES: 'false', CHAIN_RPC_URL: node.info.url, CHAIN_RPC_REQUESTS_PER_SECOND: '0', PGLITE_DIR: pgliteDir, ...limiterEnv.off,
      ...(process.env.SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS } : {}),
    },
  });
  return { svc, cases };
})();

const memory = () => {
  const m = service.svc.memory();
  return m ? `rss ${Math.round(m.rssKb / 1024)} MB, peak ${Math.round(m.peakRssKb / 1024)} MB` : 'rss ?';
};
try {
  const body = await (await fetch(`${service.svc.url}/tokens`)).text();
  const baseline = await startBaselineServer(body);
  try {
    console.log(`ready: ${memory()}`);
    for (const id of wanted) {
      const c = id === 'base' ? undefined : service.cases.find((x) => x.id === id && x.target === 'service');
      if (id !== 'base' && !c) {
        console.log(`${id}: no such service case`);
        continue;
      }
      const origin = c ? service.svc.url : baseline.url;
      const r = await runLoad({ origin, next: c ? c.next : () => ({ path: '/' }), connections: 50, durationSec });
      console.log(`${id}: ${r.rps} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, non-2xx ${r.non2xx}${c ? ` | ${memory()}` : ''}`);
    }
  } finally {
    await baseline.stop();
  }
} finally {
  await service.svc.stop();
  await node.stop();
}
process.exit(0);
