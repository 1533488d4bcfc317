// Indexing numbers: backfill throughput of the indexer over the demo chain's history, and the
// freshness lag of a running service (`main.ts start` following the same chain): seconds from a
// new block with swaps being mined to the API answering the changed swap counts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChainClient } from '../../src/chain/createChainClient.ts';
import { createDatabase } from '../../src/db/index.ts';
import { indexerConfigFromDemo } from '../../src/demo/indexerConfigFromDemo.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { createPrng } from '../../src/demo/prng.ts';
import type { ChainNode } from './processes.ts';
import { startService } from './processes.ts';

export type ThroughputResult = {
  blocks: number;
  /** Swap events (a pool swap counts once). */
  swaps: number;
  /** Stored swap rows (one per token of the pool). */
  swapRows: number;
  batches: number;
  batchSize: number;
  rpcRequests: number;
  durationMs: number;
  blocksPerSecond: number;
  swapsPerSecond: number;
};

export async function measureBackfill(node: ChainNode, options: { timeoutMs: number }): Promise<ThroughputResult> {
  const config = indexerConfigFromDemo(node.info.deployment);
  const db = await createDatabase({ pgliteDir: 'memory://' });
  const chain = createChainClient({ url: node.info.url, timeoutMs: 10_000 });
  try {
    const indexer = createIndexer({ db, chain, config });
    const started = performance.now();
    let blocks = 0;
    let swaps = 0;
    let swapRows = 0;
    let batches = 0;
    for (let i = 0; i < 100_000; i++) {
      if (performance.now() - started > options.timeoutMs) throw new Error('backfill did not catch up in time');
      const result = await indexer.syncOnce();
      if (result.batch) {
        batches++;
        blocks += result.batch.toBlock - result.batch.fromBlock + 1;
        swaps += result.batch.swapEvents;
        swapRows += result.batch.swaps;
      }
      if (result.caughtUp) break;
    }
    const durationMs = performance.now() - started;
    const per = (x: number) => Math.round((x / durationMs) * 1000 * 10) / 10;
    return {
      blocks, swaps, swapRows, batches, batchSize: config.batchSize, rpcRequests: chain.stats().requests,
      durationMs: Math.round(durationMs), blocksPerSecond: per(blocks), swapsPerSecond: per(swaps),
    };
  } finally {
    chain.destroy();
    await db.close();
  }
}

export type FreshnessResult = {
  /** Seconds from each block with swaps to its effect on the API; null when it never showed. */
  samples: (number | null)[];
  /** Blocks mined without any swap: nothing for the API to show, so not a sample. */
  blocksWithoutSwaps: number;
  medianSeconds: number | null;
  maxSeconds: number | null;
  settings: { indexerPollMs: number; dataVersionPollMs: number; apiPollMs: number };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function swapCounts(url: string): Promise<string> {
  const res = await fetch(`${url}/tokens?limit=100&order=contractAddress&sort=asc`, { signal: AbortSignal.timeout(5000) });
  const body = (await res.json()) as { data?: { contractAddress: string; info?: { swaps?: number } }[] };
  return JSON.stringify((body.data ?? []).map((t) => [t.contractAddress, t.info?.swaps ?? null]));
}

/** `main.ts start` (indexer + API, one process) following the chain; `iterations` new blocks. */
export async function measureFreshness(
  node: ChainNode,
  options: { iterations: number; logFile: string; seed: number; timeoutMs: number },
): Promise<FreshnessResult> {
  const indexerPollMs = 1000;
  const dataVersionPollMs = 1000;
  const apiPollMs = 20;
  const presetFile = demoPresetFile(node, indexerPollMs);
  const service = await startService({
    mode: 'start',
    logFile: options.logFile,
    env: {
      NODE_ENV: 'production', LOG_LEVEL: 'info', VALIDATE_RESPONSES: 'false', PGLITE_DIR: 'memory://',
      CHAIN_RPC_URL: node.info.url, CHAIN_RPC_REQUESTS_PER_SECOND: '0', INDEXER_NETWORK_FILE: presetFile, RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0',
      DATA_VERSION_POLL_MS: String(dataVersionPollMs),
    },
  });
  const rng = createPrng(options.seed ^ 0xf7e5);
  const samples: (number | null)[] = [];
  let blocksWithoutSwaps = 0;
  try {
    // caught up: swaps visible and the answer stable over two indexer polls
    const deadline = Date.now() + options.timeoutMs;
    let previous = '';
    for (;;) {
      if (Date.now() > deadline) throw new Error('indexer in `start` did not catch up in time');
      const now = await swapCounts(service.url).catch(() => '');
      if (now && now !== '[]' && now === previous && /,[1-9]/.test(now)) break;
      previous = now;
      await sleep(2 * indexerPollMs + 100);
    }
    while (samples.length < options.iterations && blocksWithoutSwaps < 4 * options.iterations) {
      await sleep(Math.floor(rng.range(0, indexerPollMs))); // de-phase from the polls
      const before = await swapCounts(service.url);
      const { minedAtMs, swaps } = await node.trade();
      if (swaps === 0) {
        blocksWithoutSwaps += 1; // swap counts cannot change: waiting would only time out
        continue;
      }
      let lag: number | null = null;
      for (let k = 0; k < Math.ceil(30_000 / apiPollMs); k++) {
        const now = await swapCounts(service.url).catch(() => before);
        if (now !== before) {
          lag = (Date.now() - minedAtMs) / 1000;
          break;
        }
        await sleep(apiPollMs);
      }
      samples.push(lag === null ? null : Math.round(lag * 1000) / 1000);
    }
  } finally {
    await service.stop();
  }
  const ok = samples.filter((s): s is number => s !== null).sort((a, b) => a - b);
  return {
    samples,
    blocksWithoutSwaps,
    medianSeconds: ok.length ? (ok[Math.floor((ok.length - 1) / 2)] ?? null) : null,
    maxSeconds: ok.length ? (ok[ok.length - 1] ?? null) : null,
    settings: { indexerPollMs, dataVersionPollMs, apiPollMs },
  };
}

/** The demo chain's indexer preset as a file (INDEXER_NETWORK_FILE), polling every `pollMs`. */
function demoPresetFile(node: ChainNode, pollMs: number): string {
  const config = indexerConfigFromDemo(node.info.deployment, { pollIntervalMs: pollMs });
  // The demo's circulating rules name its accounts by role, which only the embedded demo resolves;
  // a node reached by URL is any network to the service: no circulating rules.
  const { network: _n, ...rest } = config;
  const preset = { ...rest, circulatingConfig: 'none' };
  const presetFile = join(mkdtempSync(join(tmpdir(), 'bench-indexer-')), 'demo-network.json');
  writeFileSync(presetFile, JSON.stringify(preset, null, 2));
  return presetFile;
}

/**
 * Waits until the indexer's history is complete (`data_version.history_from` null): a head-first
 * bootstrap is ready at the head and fills history after, and the last filled range moves every
 * token's windows (a full load of the catalogue in every serve process, docs/performance.md). The
 * cases measure serving while the indexer follows live trading, after that start-up.
 */
async function historyFilled(databaseUrl: string, deadline: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ from: Date | null }>('SELECT history_from AS "from" FROM data_version WHERE id = 1');
      if (rows[0] && rows[0].from === null) return;
      if (Date.now() > deadline) throw new Error('the live writer\'s indexer did not fill its history in time');
      await sleep(500);
    }
  } finally {
    await client.end();
  }
}

export type LiveWriterResult = { tradeEveryMs: number; blocks: number; swaps: number; durationMs: number };
export type LiveWriter = { stop(): Promise<LiveWriterResult> };

/**
 * The demo indexer writing into `databaseUrl` while cases run: `npm run index` (its own process)
 * follows the demo chain, which mines a block of trading every `tradeEveryMs`; each block's swaps
 * move prices and change the data version the serving processes watch. Starts once the indexer has
 * caught up with the chain (its readiness) and filled its history.
 */
export async function startLiveWriter(node: ChainNode, options: { databaseUrl: string; logFile: string; tradeEveryMs: number; timeoutMs: number }): Promise<LiveWriter> {
  const pollMs = 1000;
  const indexer = await startService({
    mode: 'index',
    logFile: options.logFile,
    readyTimeoutMs: options.timeoutMs,
    env: {
      NODE_ENV: 'production', LOG_LEVEL: 'info', DATABASE_URL: options.databaseUrl, CHAIN_RPC_URL: node.info.url, CHAIN_RPC_REQUESTS_PER_SECOND: '0',
      INDEXER_NETWORK_FILE: demoPresetFile(node, pollMs),
    },
  });
  try {
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      const res = await fetch(`${indexer.url}/readyz`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
      await res?.arrayBuffer();
      if (res?.ok) break;
      if (Date.now() > deadline) throw new Error('the live writer\'s indexer did not catch up in time');
      await sleep(500);
    }
    await historyFilled(options.databaseUrl, deadline);
  } catch (error) {
    await indexer.stop();
    throw error;
  }
  const started = performance.now();
  let blocks = 0;
  let swaps = 0;
  let stopped = false;
  let failure: unknown;
  const trading = (async () => {
    while (!stopped) {
      const next = performance.now() + options.tradeEveryMs;
      try {
        const traded = await node.trade();
        blocks += 1;
        swaps += traded.swaps;
      } catch (error) {
        failure = error;
        return;
      }
      await sleep(Math.max(0, next - performance.now()));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await trading;
      const durationMs = Math.round(performance.now() - started);
      const { exitCode } = await indexer.stop();
      if (failure) throw failure;
      if (exitCode !== 0 && exitCode !== null) throw new Error(`the live writer's indexer exited with ${exitCode}; see ${options.logFile}`);
      return { tradeEveryMs: options.tradeEveryMs, blocks, swaps, durationMs };
    },
  };
}
