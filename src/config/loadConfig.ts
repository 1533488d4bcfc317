import { ConfigError } from '../errors/index.ts';
import { readChainSettings, type ChainSettings } from './chainSettings.ts';
import { readDatabaseRetrySchedule, readDatabaseTimeouts, type DatabaseRetrySchedule, type DatabaseTimeouts } from './databaseTimeouts.ts';
import { loadIndexerConfig, type IndexerConfig } from './indexerConfig.ts';
import { EnvReader, type Env } from './readEnv.ts';
import { readSupplySettings, type SupplySettings } from './supplyConfig.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export type Config = {
  port: number;
  host: string;
  /** PostgreSQL URL; undefined means embedded PGlite in `pgliteDir`. */
  databaseUrl: string | undefined;
  /** PGlite data directory ('memory://' keeps it in memory); unset: in memory for the demo chain, ./data/pglite otherwise. */
  pgliteDir: string | undefined;
  /** Bounds of every PostgreSQL connection (unused on PGlite). */
  databaseTimeouts: DatabaseTimeouts;
  /** How `serve` and `index` started while PostgreSQL does not answer try again (DB_START_RETRY_*). */
  databaseRetry: DatabaseRetrySchedule;
  /** The longest a request waits for the token and price data to be checked before the data held answers. */
  dataRefreshWaitMs: number;
  /** The node, each request's bounds and the request budget shared by everything that reads it. */
  chain: ChainSettings;
  /** The indexer (network preset and INDEXER_*; the embedded demo builds its own from its deployment). */
  indexer: IndexerConfig;
  /** The network token's supply endpoints (NETWORK_TOKEN_ADDRESS, SUPPLY_*). */
  supply: SupplySettings;
  logLevel: LogLevel;
  /** Validate every response against spec/openapi.yaml (on in tests, off by default in production). */
  validateResponses: boolean;
  rpc: {
    maxBatchSize: number;
    maxBodyBytes: number;
    cacheSize: number;
    upstreamTimeoutMs: number;
    bodyTimeoutMs: number;
    /** How long after its start an upstream call is shared with identical new requests (RPC_SHARE_WINDOW_MS). */
    shareWindowMs: number;
  };
  /** snapshotDir: where the demo's snapshot is kept (src/demo/snapshot.ts); unset: data/demo-snapshot. */
  demo: { seed: number; chainPort: number; liveTrading: boolean; catchUp: boolean; snapshotDir: string | undefined };
  http: {
    /** Express "trust proxy": false, true, a hop count, or addresses/subnets. */
    trustProxy: boolean | number | string;
    /** Per-IP limits; undefined means the mode's default (production 2/s and 60/min). 0 turns a window off. */
    rateLimitPerSecond: number | undefined;
    rateLimitPerMinute: number | undefined;
    /** Shared rate-limit counters for several API processes. */
    redisUrl: string | undefined;
    /** A Redis command slower than this counts as Redis being down: the process counts on its own. */
    redisCommandTimeoutMs: number;
    /** How long start-up waits for Redis before serving with per-process counting. */
    redisStartWaitMs: number;
    /**
     * Refuse query parameters an operation does not declare (a 400 naming each), as before issue
     * 37; by default they are ignored and named in X-Ignored-Parameters.
     */
    strictQueryParameters: boolean;
    /** Cache-Control max-age of token and price answers: the data refresh cadence. */
    cacheMaxAgeSeconds: number;
    /** Bound of each API process's store of serialised answers, in MiB (why 2: responseCache.ts). */
    responseCacheMb: number;
    /** How often each API process reads the data version to drop cached answers. */
    dataVersionPollMs: number;
    /** Readiness fails when the indexer is more than this many blocks behind the head. */
    readyMaxLagBlocks: number;
    /** /readyz adds each failed check's whole error, addresses included (READYZ_ERROR_DETAILS; off: the dependency's name only). */
    readyzErrorDetails: boolean;
    /** How long SIGTERM waits for in-flight requests. */
    shutdownDrainMs: number;
    /** After SIGTERM, how long idle keep-alive connections stay open for requests already on their way. */
    shutdownIdleGraceMs: number;
  };
};

function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

/**
 * Reads and validates the whole configuration, once at start-up (main.ts hands its parts down; no
 * other module reads the environment). Throws one ConfigError naming every bad value.
 */
export function loadConfig(env: Env): Config {
  const read = new EnvReader(env);
  const problems = read.problems;
  const collect = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const perSecond = read.string('RATE_LIMIT_PER_SECOND');
  const perMinute = read.string('RATE_LIMIT_PER_MINUTE');
  const http: Config['http'] = {
    trustProxy: trustProxy(read.string('TRUST_PROXY')),
    rateLimitPerSecond: perSecond === undefined ? undefined : read.integer('RATE_LIMIT_PER_SECOND', 2, 0, 1_000_000),
    rateLimitPerMinute: perMinute === undefined ? undefined : read.integer('RATE_LIMIT_PER_MINUTE', 60, 0, 60_000_000),
    redisUrl: read.url('REDIS_URL', ['redis:', 'rediss:']),
    redisCommandTimeoutMs: read.integer('REDIS_COMMAND_TIMEOUT_MS', 250, 10, 60_000),
    redisStartWaitMs: read.integer('REDIS_START_WAIT_MS', 2000, 0, 60_000),
    strictQueryParameters: read.boolean('STRICT_QUERY_PARAMETERS', false),
    cacheMaxAgeSeconds: read.integer('CACHE_MAX_AGE_SECONDS', 5, 0, 86_400),
    responseCacheMb: read.integer('RESPONSE_CACHE_MB', 2, 1, 4096),
    dataVersionPollMs: read.integer('DATA_VERSION_POLL_MS', 1000, 50, 60_000),
    readyMaxLagBlocks: read.integer('READY_MAX_LAG_BLOCKS', 50, 1, 10_000_000),
    readyzErrorDetails: read.boolean('READYZ_ERROR_DETAILS', false),
    shutdownDrainMs: read.integer('SHUTDOWN_DRAIN_MS', 10_000, 0, 300_000),
    shutdownIdleGraceMs: read.integer('SHUTDOWN_IDLE_GRACE_MS', 500, 0, 60_000),
  };
  const config: Config = {
    port: read.integer('PORT', 3000, 0, 65535),
    host: read.string('HOST', '0.0.0.0'),
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    pgliteDir: read.string('PGLITE_DIR'),
    databaseTimeouts: readDatabaseTimeouts(read),
    databaseRetry: readDatabaseRetrySchedule(read),
    dataRefreshWaitMs: read.integer('DATA_REFRESH_WAIT_MS', 500, 0, 60_000),
    chain: readChainSettings(read),
    indexer: collect(() => loadIndexerConfig(env))!,
    supply: collect(() => readSupplySettings(env))!,
    logLevel: read.oneOf<LogLevel>('LOG_LEVEL', 'info', [
      'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent',
    ]),
    validateResponses: read.boolean('VALIDATE_RESPONSES', false),
    rpc: {
      maxBatchSize: read.integer('RPC_MAX_BATCH_SIZE', 100, 1, 10_000),
      maxBodyBytes: read.integer('RPC_MAX_BODY_BYTES', 1_048_576, 1024, 104_857_600),
      cacheSize: read.integer('RPC_CACHE_SIZE', 10_000, 0, 10_000_000),
      upstreamTimeoutMs: read.integer('RPC_UPSTREAM_TIMEOUT_MS', 10_000, 100, 300_000),
      bodyTimeoutMs: read.integer('RPC_BODY_TIMEOUT_MS', 10_000, 100, 300_000),
      shareWindowMs: read.integer('RPC_SHARE_WINDOW_MS', 250, 0, 60_000),
    },
    demo: {
      seed: read.integer('DEMO_SEED', 59144, 0, 2 ** 31 - 1),
      chainPort: read.integer('DEMO_CHAIN_PORT', 8545, 0, 65535),
      liveTrading: read.boolean('DEMO_LIVE_TRADING', true),
      catchUp: read.boolean('DEMO_CATCH_UP', true),
      snapshotDir: read.string('DEMO_SNAPSHOT_DIR'),
    },
    http,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The variables whose URLs may carry credentials or keys: every log line is scrubbed of them (redactUrl.ts). */
export const SECRET_URL_VARIABLES = ['CHAIN_RPC_URL', 'DATABASE_URL', 'REDIS_URL', 'INDEXER_TOKEN_LIST'] as const;
