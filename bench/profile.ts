// CPU profiles of the service under one case's load each:
//   tsx bench/profile.ts [--tokens N (24000)] [--duration S] [--cases id,id,…] [--out DIR] [--keep]
// Starts the demo chain and a catalogue like bench/run.ts, then for every case a fresh
// `node --cpu-prof --import tsx src/main.ts serve`, the case's load (autocannon, 50 connections),
// SIGTERM (the profile is written at exit) and a summary: bench/results/profile.md; --keep also
// copies each raw profile there as <case>.cpuprofile (for DevTools or line-level reading).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase } from '../src/db/index.ts';
import { buildCases } from './lib/cases.ts';
import { buildCatalogue, searchTermsOf, writeCatalogue } from './lib/catalogue.ts';
import { renderProfile, summariseProfile } from './lib/cpuProfile.ts';
import { limiterEnv } from './lib/limiter.ts';
import { runLoad } from './lib/load.ts';
import { repoRoot, startChainNode, startService } from './lib/processes.ts';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const tokens = Number(arg('--tokens') ?? 24_000);
const durationSec = Number(arg('--duration') ?? 8);
const wanted = (arg('--cases') ?? 'tokens.default.hot,tokens.default.varied,tokens.deepPage.varied,tokens.addresses100.varied,rpc.byHash.uncached').split(',');
const outDir = resolve(arg('--out') ?? join(repoRoot, 'bench', 'results'));
const keep = argv.includes('--keep');
const seed = 59144;
const log = (m: string) => process.stderr.write(`[profile] ${m}\n`);

async function main() {
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const node = await startChainNode({ hours: 3, seed });
  const sections: string[] = [];
  try {
    const now = new Date();
    const catalogue = buildCatalogue({ count: tokens, seed, now });
    const pgliteDir = join(work, 'pglite');
    const db = await createDatabase({ pgliteDir });
    await writeCatalogue(db, catalogue, { count: tokens, seed, now });
    await db.close();
    log(`catalogue of ${tokens} tokens written`);
    const cases = buildCases({ seed, addresses: catalogue.addresses, priced: catalogue.priced, tokenCount: tokens, networkToken: node.info.deployment.networkToken.address, txs: node.info.txs, searchTerms: searchTermsOf(catalogue, seed) });
    for (const id of wanted) {
      const c = cases.find((x) => x.id === id);
      if (!c || c.target === 'node') {
        log(`skipping unknown or node-only case ${id}`);
        continue;
      }
      const profDir = join(work, `prof-${id}`);
      const service = await startService({
        mode: 'serve',
        logFile: join(outDir, 'service.log'),
        cpuProfDir: profDir,
        env: {
          NODE_ENV: 'production', LOG_LEVEL: 'info', VALIDATE_RESPONSES: 'false', CHAIN_RPC_URL: node.info.url, CHAIN_RPC_REQUESTS_PER_SECOND: '0',
          PGLITE_DIR: c.target === 'uncachedRpc' ? 'memory://' : pgliteDir,
          ...limiterEnv[c.limiter ?? 'off'],
          ...(c.target === 'uncachedRpc' ? { RPC_CACHE_SIZE: '0' } : {}),
        },
      });
      let rps = 0;
      try {
        const r = await runLoad({ origin: service.url, next: c.next, connections: 50, durationSec });
        rps = r.rps;
        log(`${id}: ${r.rps} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`);
      } finally {
        await service.stop();
      }
      const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
      if (!file) throw new Error(`no profile written for ${id}`);
      const summary = summariseProfile(join(profDir, file));
      if (keep) copyFileSync(join(profDir, file), join(outDir, `${id}.cpuprofile`));
      sections.push(renderProfile(`${id} (${c.label}; ${rps} req/s under profiling, ${durationSec} s)`, summary));
    }
  } finally {
    await node.stop();
    rmSync(work, { recursive: true, force: true });
  }
  const md = [
    '# CPU profiles of the service',
    '',
    `${new Date().toISOString()}, Node ${process.version}, ${tokens} tokens, 50 connections, \`node --cpu-prof\`; production settings (NODE_ENV=production, LOG_LEVEL=info to a file, VALIDATE_RESPONSES=false, rate limits off). Profiling slows the process; read shares, not absolute numbers. Start-up is included in the sampled time (small against the load).`,
    '',
    ...sections,
  ].join('\n');
  writeFileSync(join(outDir, 'profile.md'), md);
  log(`wrote ${join(outDir, 'profile.md')}`);
}

main().then(() => process.exit(0), (e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
