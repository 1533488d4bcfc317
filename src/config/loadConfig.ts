import { ConfigError } from '../errors/index.ts';
import { EnvReader, type Env } from './readEnv.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export type Config = {
  port: number;
  host: string;
  /** PostgreSQL URL; undefined means embedded PGlite in `pgliteDir`. */
  databaseUrl: string | undefined;
  /** PGlite data directory; 'memory://' keeps it in memory. */
  pgliteDir: string;
  /** Upstream JSON-RPC node; undefined means the embedded demo chain. */
  chainRpcUrl: string | undefined;
  logLevel: LogLevel;
  /** Validate every response against spec/openapi.yaml (on in tests, off by default in production). */
  validateResponses: boolean;
  rpc: {
    maxBatchSize: number;
    maxBodyBytes: number;
    cacheSize: number;
    upstreamTimeoutMs: number;
  };
  demo: { seed: number; chainPort: number; liveTrading: boolean };
};

/** Reads and validates the whole configuration; throws one ConfigError naming every bad value. */
export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const isTest = env.NODE_ENV === 'test';
  const config: Config = {
    port: read.integer('PORT', 3000, 0, 65535),
    host: read.string('HOST', '0.0.0.0'),
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    pgliteDir: read.string('PGLITE_DIR', isTest ? 'memory://' : './data/pglite'),
    chainRpcUrl: read.url('CHAIN_RPC_URL', ['http:', 'https:']),
    logLevel: read.oneOf<LogLevel>('LOG_LEVEL', isTest ? 'silent' : 'info', [
      'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent',
    ]),
    validateResponses: read.boolean('VALIDATE_RESPONSES', isTest),
    rpc: {
      maxBatchSize: read.integer('RPC_MAX_BATCH_SIZE', 100, 1, 10_000),
      maxBodyBytes: read.integer('RPC_MAX_BODY_BYTES', 1_048_576, 1024, 104_857_600),
      cacheSize: read.integer('RPC_CACHE_SIZE', 10_000, 0, 10_000_000),
      upstreamTimeoutMs: read.integer('RPC_UPSTREAM_TIMEOUT_MS', 10_000, 100, 300_000),
    },
    demo: {
      seed: read.integer('DEMO_SEED', 42, 0, 2 ** 31 - 1),
      chainPort: read.integer('DEMO_CHAIN_PORT', 8545, 0, 65535),
      liveTrading: read.boolean('DEMO_LIVE_TRADING', true),
    },
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}
