// Composition root: the only module that wires configuration, storage, chain, indexer, API and
// RPC together. `start` (default) runs everything in one process — with the embedded demo chain
// when CHAIN_RPC_URL is unset; `serve` runs a stateless API process; `index` runs the indexer.
import pino, { type Logger } from 'pino';
import { createHttpHandler } from './api/createHttpHandler.ts';
import { countingNote, createSharedHitCounter } from './api/limits/createSharedHitCounter.ts';
import { createTokenCatalog } from './readModel/tokens/createTokenCatalog.ts';
import { createMetrics } from './api/observability/createMetrics.ts';
import { createPriceHistoryStore, type PriceHistoryStore } from './readModel/prices/createPriceHistoryStore.ts';
import { startHttpServer } from './api/startHttpServer.ts';
import { createResponseValidator } from './api/validation/createResponseValidator.ts';
import { withResponseValidation } from './api/validation/withResponseValidation.ts';
import { createNetworkTokenSupplyService } from './readModel/supply/createNetworkTokenSupplyService.ts';
import { createChainClient, createRequestBudget, type ChainClient, type ChainClientOptions } from './chain/index.ts';
import { loadConfig, SECRET_URL_VARIABLES, type Config } from './config/loadConfig.ts';
import { loadCirculatingConfig } from './config/circulatingConfig.ts';
import { createSecretScrubber, redactUrl } from './config/redactUrl.ts';
import { resolveNetworkTokenSupply } from './config/networkTokenSupply.ts';
import { createDatabase, openDatabaseRetrying, type Database, type RetryingDatabase } from './db/index.ts';
import { createStatusHandler } from './api/createStatusHandler.ts';
import type { ReadinessCheck } from './api/observability/healthRouter.ts';
import { readCheckpoint } from './db/indexer/index.ts';
import { createDocsRouter } from './docs/index.ts';
import { createExplorerRouter, EXPLORER_FILE_PATHS } from './explorer/index.ts';
import { ConfigError } from './errors/index.ts';
import { indexerConfigFromDemo } from './demo/indexerConfigFromDemo.ts';
import { demoRoles } from './demo/circulatingFromDemo.ts';
import { createIndexer, factoryFamilies, type Indexer } from './indexer/index.ts';
import { createRpcHandler, rpcPath } from './rpc/index.ts';

type Mode = 'start' | 'serve' | 'index';

// Every line this process writes (logs, banner, a fatal error) is scrubbed of the credentials and
// key-like parts of the configured URLs: a library's error text may quote a URL whole.
const scrub = createSecretScrubber(SECRET_URL_VARIABLES.map((name) => process.env[name]));
type Stoppable = { name: string; stop: () => Promise<unknown> | unknown };


async function startDemoChain(config: Config, logger: Logger, onBuild?: () => void) {
  // Loaded only when needed: a deployment against a real node never loads the demo.
  const { openDemo } = await import('./demo/openDemo.ts');
  // One line when the snapshot is rebuilt or cannot be written, saying why (src/demo/snapshot.ts).
  const log = (message: string, fields: Record<string, unknown> = {}) => logger.info(fields, message);
  const options = { seed: config.demo.seed, host: '127.0.0.1', dir: config.demo.snapshotDir, log, onBuild };
  try {
    return await openDemo({ ...options, port: config.demo.chainPort });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    logger.warn({ port: config.demo.chainPort }, 'demo chain port busy; using a free port');
    return openDemo({ ...options, port: 0 });
  }
}

async function main(mode: Mode): Promise<void> {
  const config = loadConfig(process.env);
  // Asynchronous writes (lines coalesce while a write is pending): a synchronous write per
  // access-log line costs CPU on every request.
  const logger = pino({ level: config.logLevel, hooks: { streamWrite: scrub } }, pino.destination({ dest: 1, sync: false }));
  const stoppables: Stoppable[] = [];
  const stopAll = async () => {
    for (const s of stoppables.reverse()) {
      await Promise.resolve(s.stop()).catch((err: unknown) => logger.error({ err }, `stopping ${s.name} failed`));
    }
  };
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down: draining requests');
      void stopAll().then(() => {
        logger.info('stopped');
        logger.flush(() => process.exit(0));
      });
    });
  }

  // Factory types are the indexer's families: an unknown one stops the start with the other problems' message.
  if (mode !== 'serve' && config.chain.url) factoryFamilies(config.indexer);
  const started = Date.now();
  // The demo's in-memory database, when its chain is built rather than loaded: started beside the
  // build (PGlite's initdb takes seconds of one core; the chain build leaves the other one idle
  // often), since no saved database part can match a chain built now.
  const runsDemo = !config.chain.url && mode === 'start';
  // The demo's index lives in memory unless told otherwise, started from the demo snapshot's
  // database part when there is one for this chain snapshot, indexer and configuration.
  const pgliteDir = config.pgliteDir ?? (runsDemo ? 'memory://' : './data/pglite');
  const demoInMemory = runsDemo && !config.databaseUrl && pgliteDir === 'memory://';
  let emptyDemoDatabase: Promise<Database | undefined> | undefined;
  const startEmptyDemoDatabase = () => {
    if (!demoInMemory) return;
    emptyDemoDatabase = createDatabase({ pgliteDir: 'memory://', timeouts: config.databaseTimeouts }).catch((err: unknown) => {
      logger.debug({ err }, 'empty demo database not started beside the chain build: started after it');
      return undefined;
    });
  };
  const demo = runsDemo ? await startDemoChain(config, logger, startEmptyDemoDatabase) : undefined;
  if (demo) stoppables.push({ name: 'demo chain', stop: () => demo.stop() });
  const chainUrl = config.chain.url ?? demo?.chain.url;
  if (!chainUrl) throw new ConfigError([`CHAIN_RPC_URL: required by \`${mode}\` (only \`start\` runs the embedded demo chain)`]);
  // One request budget for everything this process sends the node, each client named for /metrics.
  const budget = createRequestBudget({ perSecond: config.chain.requestsPerSecond, maxConcurrency: config.chain.maxConcurrency });
  const nodeClients: Record<string, ChainClient> = {};
  const nodeClient = (name: string, overrides: Partial<ChainClientOptions> = {}) => {
    const client = createChainClient({
      url: chainUrl, timeoutMs: config.chain.timeoutMs, maxRetries: config.chain.maxRetries, maxBatchSize: config.chain.maxBatchSize, budget, ...overrides,
    });
    nodeClients[name] = client;
    stoppables.push({ name: `node client ${name}`, stop: () => client.destroy() });
    return client;
  };
  // The network token's supply rule, decided once for the /supply endpoints and the indexer alike.
  const networkToken = resolveNetworkTokenSupply(config.supply, demo?.deployment.networkToken);

  // The demo lists its blue chips; their logos are drawn by this server (the demo needs no internet).
  const demoList = demo
    ? (await import('./demo/tokenList.ts')).demoTokenList(demo.deployment, { logoBaseUrl: config.port ? `http://localhost:${config.port}` : undefined })
    : undefined;
  const indexerConfig = mode === 'serve' ? undefined : demo ? indexerConfigFromDemo(demo.deployment) : config.indexer;
  const snapshotDb = demo && demoInMemory ? demo.database({ indexerConfig, demoList, networkToken }) : undefined;
  const database = await openDatabase(snapshotDb?.dump);
  const db = database.db;
  async function openDatabase(dump: Blob | undefined): Promise<RetryingDatabase> {
    const options = { databaseUrl: config.databaseUrl, pgliteDir, timeouts: config.databaseTimeouts };
    const opened = (db: RetryingDatabase['db']): RetryingDatabase => ({ db, ready: Promise.resolve(), isReady: () => true });
    const empty = await emptyDemoDatabase;
    if (empty && !dump) return opened(empty);
    if (empty) await empty.close();
    // PostgreSQL that does not answer yet: the process starts and serves 503 (and its health)
    // while it tries again on the DB_START_RETRY_* schedule; one outage, logged when it begins and ends.
    if (!dump) {
      let downSince: number | undefined;
      return openDatabaseRetrying({
        ...options,
        retry: config.databaseRetry,
        // `index` reports the outage itself (its steps fail for it), once at each end.
        onAttemptFailed: (err, attempt, nextInMs) => {
          if (downSince !== undefined || mode === 'index') return logger.debug({ err, attempt, nextInMs }, 'database still does not answer');
          downSince = Date.now();
          logger.warn({ err, dependency: 'database', retry: config.databaseRetry }, 'database outage began: it does not answer at start-up; serving 503 with Retry-After and trying again');
        },
        onReady: (attempts) => {
          if (downSince !== undefined) logger.info({ dependency: 'database', outageMs: Date.now() - downSince, attempts }, 'database outage ended: connected and migrated');
        },
      });
    }
    try {
      return opened(await createDatabase({ ...options, pgliteStart: { loadDataDir: dump } }));
    } catch (err) {
      logger.info({ err }, 'demo database snapshot corrupt (PGlite cannot load it): re-indexing the demo chain snapshot and saving it');
      snapshotDb!.dump = undefined;
      return opened(await createDatabase(options));
    }
  }
  stoppables.push({ name: 'database', stop: () => db.close() });

  let indexer: Indexer | undefined;
  let indexMs = 0;
  const indexFrom = Date.now();
  if (indexerConfig) {
    // The network token's circulating supply follows the rule of /supply/circulating (SUPPLY_CONFIG).
    const circulatingConfig = indexerConfig.circulatingConfig
      ? loadCirculatingConfig(indexerConfig.circulatingConfig, { roles: demo ? demoRoles(demo.deployment) : {}, networkToken: networkToken?.tokenAddress })
      : undefined;
    indexer = createIndexer({
      db,
      config: indexerConfig,
      tokenList: demoList,
      circulating: { config: circulatingConfig, networkToken: networkToken && { address: networkToken.tokenAddress, supply: networkToken.config } },
      logger: logger.child({ component: 'indexer' }),
      // Retries at most a second apart: a node answering again is used within that (issue 30).
      chain: nodeClient('indexer', { retryMaxDelayMs: config.indexer.retryMaxMs ?? 1000, onExchange: (error) => indexer?.observeNode(error) }),
      // The contract checks take what the indexer's requests leave of the budget (a configured
      // network; the demo's snapshot holds the checks of one round per step).
      checksChain: demo ? undefined : nodeClient('checks', { priority: 'idle' }),
      checksRequestsPerSecond: config.chain.requestsPerSecond,
      writeTimeoutMs: config.databaseTimeouts.statementTimeoutMs,
    });
    await indexer.start();
    stoppables.push({ name: 'indexer', stop: () => indexer?.stop() });
    // Started while PostgreSQL does not answer: its next step runs as soon as the database is
    // ready, not after the rest of its retry wait.
    if (!database.isReady()) void database.ready.then(() => indexer?.wake());
    if (demo) {
      // The snapshot's history indexed with its contract checks (the step that indexed it started
      // them), saved as the database part when it was not loaded from one...
      await waitForIndexed(indexer, demo.snapshotHead, 60_000);
      await indexer.settleContractChecks().catch(() => {});
      if (snapshotDb && !snapshotDb.dump && db.dumpDataDir) await snapshotDb.save(await db.dumpDataDir());
      // ...then the chain caught up to the wall clock and indexed, so the first request sees it
      // (unless told to stay at the history's end, where every figure is reproducible).
      if (config.demo.catchUp) {
        const caughtUp = await demo.catchUp();
        // The blocks just mined are indexed now, not after the rest of the indexer's poll wait.
        indexer.wake();
        await waitForIndexed(indexer, caughtUp.toBlock, 60_000);
        await indexer.settleContractChecks().catch(() => {});
      }
      if (config.demo.liveTrading) await demo.startLive();
    }
    indexMs = Date.now() - indexFrom;
  }
  // A new connection per probe: readiness says whether the node answers now (a kept-alive
  // connection from before a partition would hold the probe until its timeout after the heal).
  // Set once the API's price histories exist (serve and start), read by /metrics at scrape time.
  let pricesHeld: PriceHistoryStore | undefined;
  const node = nodeClient('readiness', { timeoutMs: 3000, maxRetries: 0, priority: 'interactive', reuseConnections: false });
  const metrics = createMetrics({
    // `index` has no rate limits (it returns before `counter` exists).
    rateLimitCounting: mode === 'index' ? undefined : () => {
      const status = counter?.status();
      return status && { shared: status.mode === 'shared', fallbacks: status.fallbacks };
    },
    indexerLag: () => {
      const s = indexer?.status();
      return s && s.lagBlocks !== null && s.lagSeconds !== null ? { lagBlocks: s.lagBlocks, lagSeconds: s.lagSeconds } : undefined;
    },
    indexerRole: () => indexer?.status().role,
    indexerCirculatingFailures: () => indexer?.status().circulatingReadFailures,
    indexerContractChecks: () => {
      const s = indexer?.status();
      return s && { stored: s.contractChecks, failed: s.contractCheckFailures };
    },
    chainNode: () => ({ clients: Object.fromEntries(Object.entries(nodeClients).map(([name, c]) => [name, c.stats()])), budget: budget.stats() }),
    priceHistories: () => pricesHeld?.stats(),
  });
  const chainNodeCheck: ReadinessCheck = async () => void (await node.request('eth_blockNumber'));
  if (mode === 'index') {
    // The indexer's own status port: health, readiness (database, chain node, role and lag) and metrics.
    const status = await startHttpServer(
      createStatusHandler({
        metrics,
        logger,
        exposeErrors: config.http.readyzErrorDetails,
        checks: {
          database: async () => void (await db.query('SELECT 1')),
          chainNode: chainNodeCheck,
          indexer: async () => indexerReadiness(indexer!, config.http.readyMaxLagBlocks),
        },
      }),
      { port: config.port, host: config.host, drainMs: config.http.shutdownDrainMs, idleGraceMs: config.http.shutdownIdleGraceMs },
    );
    stoppables.push({ name: 'status server', stop: () => status.close() });
    logger.info({ url: status.url, chainNode: redactUrl(chainUrl), ms: Date.now() - started }, 'indexer running');
    return;
  }
  const catalog = createTokenCatalog({
    db,
    staleMs: config.http.dataVersionPollMs,
    pollMs: config.http.dataVersionPollMs,
    waitMs: config.dataRefreshWaitMs,
    onError: (err) => logger.warn({ err }, 'token catalogue refresh failed; serving the tokens held, marked stale'),
  });
  stoppables.push({ name: 'token catalogue', stop: () => catalog.stop() });
  let tokensLoaded!: () => void;
  const prices = createPriceHistoryStore({
    db,
    staleMs: config.http.dataVersionPollMs,
    pollMs: config.http.dataVersionPollMs,
    waitMs: config.dataRefreshWaitMs,
    onError: (err) => logger.warn({ err }, 'price history refresh failed; serving the histories held, marked stale'),
    fillAfter: new Promise<void>((resolve) => (tokensLoaded = resolve)),
  });
  stoppables.push({ name: 'price histories', stop: () => prices.stop() });
  pricesHeld = prices;
  // Loaded before serving when the database answers; otherwise as soon as it does (until then
  // requests for tokens and prices answer 503 with Retry-After).
  const loadHeld = () => Promise.all([catalog.refresh(true).finally(tokensLoaded), prices.refresh(true)]);
  if (database.isReady()) await loadHeld();
  else void database.ready.then(loadHeld).catch((err: unknown) => logger.warn({ err }, 'loading tokens and prices failed; requests load them'));
  const counter = config.http.redisUrl
    ? createSharedHitCounter({
        url: config.http.redisUrl,
        commandTimeoutMs: config.http.redisCommandTimeoutMs,
        onModeChange: (mode, err) =>
          mode === 'local'
            ? logger.warn({ err }, 'Redis does not answer: rate limits are counted by this process alone until it does')
            : logger.info('Redis answers: rate limits are shared again'),
      })
    : undefined;
  if (counter) {
    stoppables.push({ name: 'redis', stop: () => counter.stop() });
    if (!(await counter.ready(config.http.redisStartWaitMs))) {
      logger.warn({ reason: counter.status().reason }, `Redis did not answer within ${config.http.redisStartWaitMs} ms: serving with rate limits counted by this process alone`);
    }
  }
  // The public Linea service allows 2/s and 60/min per IP; the demo is for humans clicking around.
  const defaults = demo ? { perSecond: 50, perMinute: 3000 } : { perSecond: 2, perMinute: 60 };

  // Few retries: a failing node should turn into a stale answer quickly, not into a slow one.
  const supply = createNetworkTokenSupplyService(networkToken, {
    chain: nodeClient('supply', { maxRetries: 1, timeoutMs: 4000, priority: 'interactive' }),
    logger: logger.child({ component: 'supply' }),
  });

  const docs = createDocsRouter({
    onError: (err, what) =>
      what === 'build'
        ? logger.error({ err }, 'the documentation site could not be built: /docs answers 503 until the next attempt')
        : logger.warn({ err: (err as Error).message }, 'the documentation site is served from memory: its cache directory is not writable'),
  });
  // The explorer page (/explorer, and / in the demo): its files come from the build (dist/explorer/assets/).
  const explorer = createExplorerRouter({
    networkToken: supply?.tokenAddress,
    redirectRoot: Boolean(demo),
    rateLimit: { perSecond: config.http.rateLimitPerSecond ?? defaults.perSecond, perMinute: config.http.rateLimitPerMinute ?? defaults.perMinute },
  });
  const { handler } = createHttpHandler({
    db,
    logger,
    supply,
    metrics,
    catalog,
    prices,
    cache: { maxAgeSeconds: config.http.cacheMaxAgeSeconds, maxBytes: config.http.responseCacheMb * 1024 * 1024 },
    trustProxy: config.http.trustProxy,
    strictQueryParameters: config.http.strictQueryParameters,
    rateLimit: {
      perSecond: config.http.rateLimitPerSecond ?? defaults.perSecond,
      perMinute: config.http.rateLimitPerMinute ?? defaults.perMinute,
      counter,
    },
    notLimited: [...EXPLORER_FILE_PATHS, ...(demo ? ['/'] : [])],
    rpc: {
      path: rpcPath,
      handler: createRpcHandler({
        upstreamUrl: chainUrl,
        ...config.rpc,
        observe: metrics.rpcObserver,
        client: nodeClient('rpc', { timeoutMs: config.rpc.upstreamTimeoutMs, maxRetries: 0, priority: 'interactive', observe: metrics.rpcObserver.upstream }),
      }),
    },
    routers: [
      docs,
      explorer,
      ...(demoList ? [(await import('./demo/logoRouter.ts')).createDemoLogoRouter({ symbols: demoList.map((e) => e.symbol) })] : []),
    ],
    readinessErrors: config.http.readyzErrorDetails,
    readiness: {
      ...(counter ? { rateLimitCounter: async () => countingNote(counter.status()) } : {}),
      chainNode: chainNodeCheck,
      indexer: async () => {
        // A standby follows the writer's progress in the database, as a stateless API process does.
        const standby = indexer?.status().role === 'standby';
        const lag = indexer && !standby ? indexer.status().lagBlocks : await lagFromCheckpoint();
        if (lag === null) throw new Error('nothing indexed yet');
        if (lag > config.http.readyMaxLagBlocks) throw new Error(`${lag} blocks behind the head (limit ${config.http.readyMaxLagBlocks})`);
        if (standby) return 'standby: another indexer holds the writer lock';
      },
    },
  });
  // A stateless API process reads the indexer's progress from the shared database.
  async function lagFromCheckpoint(): Promise<number | null> {
    const checkpoint = await readCheckpoint(db);
    if (!checkpoint) return null;
    const head = await node.getBlockNumber();
    return Math.max(0, head - checkpoint.blockNumber);
  }

  const served = config.validateResponses ? withResponseValidation(handler, createResponseValidator(), logger) : handler;
  const server = await startHttpServer(served, { port: config.port, host: config.host, drainMs: config.http.shutdownDrainMs, idleGraceMs: config.http.shutdownIdleGraceMs });
  stoppables.push({ name: 'http server', stop: () => server.close() });
  // Built once the server answers, so start-up is not slowed; /docs waits for it if asked first.
  void docs.warm();
  void explorer.warm();
  printBanner(logger, server.url, redactUrl(chainUrl), Date.now() - started, demo && { ...demo.history, toBlock: demo.snapshotHead, snapshot: demo.snapshot.source, timings: { ...demo.timings, indexMs } });
}

/**
 * The indexer's readiness: a standby is ready (it follows the writer); a writer is when it has
 * indexed something, is within `maxLag` blocks of the head and no dependency is out. The detail
 * says the role and the checkpoint's lag.
 */
function indexerReadiness(indexer: Indexer, maxLag: number): string {
  const s = indexer.status();
  const out = s.outages.map((o) => `${o.dependency} out for ${Math.round((Date.now() - o.since.getTime()) / 1000)} s`);
  if (out.length) throw new Error(`indexing paused: ${out.join(', ')}`);
  if (s.role === 'standby') return 'standby: another indexer holds the writer lock';
  if (s.lagBlocks === null) throw new Error('nothing indexed yet');
  if (s.lagBlocks > maxLag) throw new Error(`${s.lagBlocks} blocks behind the head (limit ${maxLag})`);
  return `${s.role ?? 'leader'}: checkpoint ${s.lagBlocks} blocks${s.lagSeconds === null ? '' : ` (${s.lagSeconds} s)`} behind the head`;
}

async function waitForIndexed(indexer: Indexer, block: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((indexer.status().indexedBlock ?? -1) < block) {
    if (Date.now() > deadline) throw new Error(`the demo history was not indexed within ${timeoutMs} ms: ${indexer.status().lastError ?? 'no error'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function printBanner(logger: Logger, url: string, chainUrl: string, ms: number, history?: { swaps: number; fromBlock: number; toBlock: number; snapshot: string; timings: Record<string, number | undefined> }) {
  // Where a demo start-up's time went: chain, deployment, history, snapshot load, catch-up, index
  // (ms); the rest is serving. demoSnapshot: 'loaded' or 'built'.
  logger.info({ url, chainUrl, readyInMs: ms, ...(history ? { demoBlocks: history.toBlock - history.fromBlock + 1, demoSwaps: history.swaps, demoSnapshot: history.snapshot, demoTimings: history.timings } : {}) }, 'token API ready');
  if (!process.stdout.isTTY && process.env.LOG_LEVEL) return;
  process.stdout.write(scrub(
    [
      '',
      `  Token API ready in ${(ms / 1000).toFixed(1)} s`,
      `  REST:     ${url}/tokens`,
      `  JSON-RPC: ${url}/rpc   (node: ${chainUrl})`,
      `  Explorer: ${url}/explorer`,
      `  Docs:     ${url}/docs`,
      '',
      '  Try:',
      `    curl '${url}/tokens?limit=5'`,
      `    curl '${url}/tokens?order=last24hVariationAbsolute&sort=desc&limit=5'`,
      `    curl -X POST ${url}/rpc -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_getTransactionByBlockNumberAndIndex","params":["latest","0x0"]}'`,
      '',
    ].join('\n'),
  ));
}

const mode = (process.argv[2] ?? 'start') as Mode;
if (!['start', 'serve', 'index'].includes(mode)) {
  process.stderr.write(`usage: main.ts [start|serve|index]\n`);
  process.exit(2);
}
main(mode).catch((error: unknown) => {
  process.stderr.write(scrub(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`));
  process.exit(1);
});
