// npm run sim -- --profile <name> [--port N] [--seed S] [--provider rps=25,rtt=30] [--out DIR]
//   [--block-ms 2000 [--reorg at:depth,...] [--live-feed-every N]]: live, a block of trading every block-ms, and at each
//   head `at` the last `depth` blocks replaced by a new branch. SIGUSR2 pauses a live run and writes its truth.
// Builds the chain, serves it, and prints `url=`, `preset=` and `truth=` lines once it serves. On
// SIGINT/SIGTERM it prints the requests by method and its own CPU time, then exits.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SimChain } from './chain.ts';
import { presetOf } from './preset.ts';
import { NO_PROVIDER, parseProvider } from './provider.ts';
import { startSimServer } from './server.ts';
import { computeTruth } from './truth.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'demo-size' },
    port: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    provider: { type: 'string' },
    out: { type: 'string' },
    'block-ms': { type: 'string' },
    reorg: { type: 'string', default: '' },
    // a USD feed round every this many blocks mined live (default: the profile's feedEvery)
    'live-feed-every': { type: 'string' },
  },
});

const started = performance.now();
const seed = Number(values.seed);
const overrides = values['live-feed-every'] === undefined ? {} : { liveFeedEvery: Number(values['live-feed-every']) };
const chain = new SimChain({ profile: values.profile!, seed, overrides });
const provider = values.provider === undefined ? NO_PROVIDER : parseProvider(values.provider);
const server = await startSimServer(chain, { port: Number(values.port), provider });
const dir = resolve(values.out ?? join(tmpdir(), `linea-sim-${chain.world.profile.name}-${seed}`));
mkdirSync(dir, { recursive: true });
const presetFile = join(dir, 'preset.json');
const truthFile = join(dir, 'truth.json');
writeFileSync(presetFile, JSON.stringify(presetOf(chain), null, 2) + '\n');
writeFileSync(truthFile, JSON.stringify(computeTruth(chain)) + '\n');
console.log(`url=${server.url}`);
console.log(`preset=${presetFile}`);
console.log(`truth=${truthFile}`);
console.log(`head=${chain.head} startupMs=${Math.round(performance.now() - started)} buildMs=${Math.round(chain.buildMs)} provider=${JSON.stringify(provider)}`);

// Live: a block every --block-ms, reorganisations at the configured heights (the truth file stays the start's).
const reorgs = new Map(values.reorg!.split(',').filter(Boolean).map((r) => r.split(':').map(Number) as [number, number]));
const live = values['block-ms'] ? setInterval(() => {
  chain.mine(1);
  const depth = reorgs.get(chain.head);
  if (depth) {
    chain.reorg(depth);
    console.log(`reorg at=${chain.head} depth=${depth}`);
  }
}, Number(values['block-ms'])) : undefined;

// SIGUSR2: stop mining and write the truth at the head reached (`paused head=N truth=FILE`), for a bench to check a live run's end.
process.on('SIGUSR2', () => {
  if (live) clearInterval(live);
  const file = join(dir, `truth-${chain.head}.json`);
  writeFileSync(file, JSON.stringify(computeTruth(chain)) + '\n');
  console.log(`paused head=${chain.head} truth=${file}`);
});

const stop = async () => {
  if (live) clearInterval(live);
  const stats = server.stats();
  const cpu = process.cpuUsage();
  console.log(`requests=${stats.requests} httpRequests=${stats.httpRequests} throttled=${stats.throttled} logRangeRefusals=${stats.logRangeRefusals}`);
  for (const [method, count] of Object.entries(stats.byMethod).sort((a, b) => b[1] - a[1])) console.log(`method ${method}=${count}`);
  console.log(`cpuUserMs=${Math.round(cpu.user / 1000)} cpuSystemMs=${Math.round(cpu.system / 1000)} answerCpuMs=${Math.round(stats.cpuMs)} peakRssMB=${Math.round(process.resourceUsage().maxRSS / 1024)}`);
  await server.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
