// CPU time per request of this checkout's request handler against another checkout's:
//   tsx bench/cpuAB.ts --other DIR [--cases id,...] [--rounds N (4)] [--duration S (3)] [--tokens N (24000)] [--dir DIR]
// For A/B measurements on a shared machine, where req/s swings with the neighbours' load: both
// handlers run in ONE server process (bench/lib/abServer.ts: same heap, same moment, same PGlite
// catalogue), each REST case of bench/lib/cases.ts is sent to one then the other, in alternating
// order, `--rounds` times (10 connections), and what is compared is that process's CPU time
// (user + system, /proc) per request. Separate processes measured a steady bias for whichever
// started first (up to 20 % on uncached cases, either way round). DIR is another checkout of
// this repository whose packages resolve (its own `npm ci`, or a node_modules link).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { createDatabase } from '../src/db/index.ts';
import { buildCases } from './lib/cases.ts';
import { buildCatalogue, candleTokenOf, searchTermsOf, writeCatalogue } from './lib/catalogue.ts';
import { argValue } from './lib/cliArgs.ts';
import { runLoad } from './lib/load.ts';
import { repoRoot } from './lib/processes.ts';

const other = argValue('--other');
if (!other) throw new Error('--other DIR: the checkout to compare with');
const tokens = Number(argValue('--tokens') ?? 24_000);
const rounds = Number(argValue('--rounds') ?? 4);
const durationSec = Number(argValue('--duration') ?? 3);
const wanted = argValue('--cases')?.split(',');
const seed = 59144;
const now = new Date();
const options = { count: tokens, seed, now };
const catalogue = buildCatalogue(options);
const pgliteDir = join(argValue('--dir') ?? join(tmpdir(), 'bench-cpu-ab'), `pglite-${tokens}-${now.toISOString().slice(0, 13)}`);
if (!existsSync(pgliteDir)) {
  const db = await createDatabase({ pgliteDir });
  await writeCatalogue(db, catalogue, options);
  await db.close();
}
const server = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'lib', 'abServer.ts'), pgliteDir, repoRoot, resolve(other)], {
  cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'],
});
const ports = await new Promise<number[]>((done, fail) => {
  let out = '';
  server.stdout!.on('data', (d: Buffer) => {
    out += d;
    const m = /PORTS (\d+) (\d+)/.exec(out);
    if (m) done([Number(m[1]), Number(m[2])]);
  });
  server.on('exit', (code) => fail(new Error(`abServer exited ${code}`)));
});
/** The server process's user + system CPU time so far, in ms (clock ticks of 10 ms). */
const cpuMs = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const sides = [['this', `http://127.0.0.1:${ports[0]}`], ['other', `http://127.0.0.1:${ports[1]}`]] as const;
const cases = buildCases({
  seed, addresses: catalogue.addresses, priced: catalogue.priced, tokenCount: tokens, networkToken: `0x${'1'.repeat(40)}`, txs: [],
  searchTerms: searchTermsOf(catalogue, seed), candles: candleTokenOf(catalogue, options),
}).filter((c) => c.target === 'service' && c.group === 'rest' && (!wanted || wanted.some((p) => c.id.startsWith(p))));

try {
  for (const [, origin] of sides) await runLoad({ origin, next: () => ({ path: '/tokens' }), connections: 10, durationSec: 2 }); // warm-up
  console.log('| case | this µs/req | other µs/req | this ÷ other | per round |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const c of cases) {
    const totals = { this: { cpu: 0, requests: 0 }, other: { cpu: 0, requests: 0 } };
    const perRound: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const got = { this: 0, other: 0 };
      for (const [name, origin] of round % 2 === 0 ? sides : [...sides].reverse()) {
        const before = cpuMs();
        const r = await runLoad({ origin, next: c.next, connections: 10, durationSec });
        const used = cpuMs() - before;
        totals[name].cpu += used;
        totals[name].requests += r.requests;
        got[name] = used / Math.max(1, r.requests);
      }
      perRound.push((got.this / got.other).toFixed(2));
    }
    const perRequest = (t: { cpu: number; requests: number }) => (t.cpu * 1000) / Math.max(1, t.requests);
    const [a, b] = [perRequest(totals.this), perRequest(totals.other)];
    console.log(`| ${c.id} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(a / b).toFixed(3)} | ${perRound.join(' ')} |`);
  }
} finally {
  server.kill('SIGTERM');
}
process.exit(0);
