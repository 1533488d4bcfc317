// Chain indexer configuration: an optional network preset (config/networks/<name>.json) overlaid
// by INDEXER_* environment variables. Every problem is collected and thrown as one ConfigError.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors/index.ts';
import { circulatingConfigPathOf } from './circulatingConfig.ts';
import { firstFactoryBlock, readFactories, type FactoriesByType } from './factoryConfig.ts';
import { EnvReader, type Env } from './readEnv.ts';
import { readRetentionConfig, type RetentionConfig } from './retentionConfig.ts';

export type IndexerConfig = {
  /** Preset name it came from, or "custom". */
  network: string;
  /** Expected chain id; the indexer refuses a node on another chain. Undefined: not checked. */
  chainId: number | undefined;
  startBlock: number;
  /** Blocks per eth_getLogs request (the client splits further if the node refuses). */
  batchSize: number;
  pollIntervalMs: number;
  /** Blocks kept behind the head; the indexer follows head − confirmations. */
  confirmations: number;
  /**
   * The factories whose pools are indexed, by factory type (the family registry, src/indexer/families,
   * names the types and validates them), each with the block its pools are discovered from.
   */
  factories: FactoriesByType;
  stablecoins: string[];
  wrappedNative: string | null;
  multicall3: string | null;
  /**
   * The USD anchor (docs/indexer.md, "Pricing"): the median of the stablecoins' markets is 1 USD, rated
   * in `usdPeg`'s units (default: the first stablecoin); a Chainlink-style ETH/USD feed (AggregatorV3
   * proxy) guards the basket, and without stablecoins prices the wrapped native token.
   */
  usdFeed: string | null;
  usdPeg: string | null;
  /** The basket has left USD when its wrapped-native price is off the feed's by more than this fraction (exact decimal). */
  usdGuard: string;
  /** Exact decimal USD amounts. */
  minLiquidityUsd: string;
  /** isSecure = security score > secureScoreMin AND market cap > secureMarketCapMinUsd. */
  secureScoreMin: number;
  secureMarketCapMinUsd: string;
  /** Uniswap Token Lists JSON: a file path or http(s) URL; null for none. A relative path in a
   *  preset file is relative to that file; in INDEXER_TOKEN_LIST, to the working directory. */
  tokenList: string | null;
  /** Recent block hashes kept to find a reorg's common ancestor. */
  reorgDepth: number;
  /** Every token's totalSupply is re-read when the indexed range crosses a multiple of this. */
  supplyRefreshBlocks: number;
  /** Where the server's autovacuum is off, the indexer vacuums the tables it rewrites once every this many blocks (0: never; default 300). */
  vacuumEveryBlocks?: number;
  /** Following the head, a forward batch with more price changes than this commits first and rolls its candles up right after, in a transaction of its own (default 1000). */
  candlesDeferredAbove?: number;
  /** A standby tries the writer lock this often; the lock's connection is checked as often (default 1000). */
  standbyPollMs?: number;
  /** A step failed for want of the node or the database is retried at most this long after (default 1000). */
  retryMaxMs?: number;
  /** Circulating-supply configuration file (config/circulating/*.json); null or absent: burn addresses only. */
  circulatingConfig?: string | null;
  /** Every token's circulating supply is read again in each window of this much chain time, ms (default 600000; 0: every batch). */
  circulatingRefreshMs?: number;
  /** At most this many eth_calls (inside Multicall3) of circulating-supply reads per batch (default 1000). */
  circulatingMaxCalls?: number;
  /** Each priced token's contract checks run again after this much chain time, ms (default 21600000: 6 h). */
  contractCheckIntervalMs?: number;
  /** At most this many RPC calls of contract checks per step (default 52: 4 tokens at 11 calls; 0: no checks). */
  contractCheckMaxCalls?: number;
  /** A step's checks not finished after this long are dropped and tried again next step, ms (default 15000). */
  contractCheckTimeoutMs?: number;
  /** How long swaps, price changes, hourly points and candles are kept (RETENTION_*; defaults when absent). */
  retention?: RetentionConfig;
  /**
   * How an empty database is filled (docs/indexer.md, "After npm run index"): `forward` indexes from
   * startBlock to the head in batches; `head-first` serves the current catalogue read at the head
   * first, then fills history newest first while following the head. Absent: forward (the demo and
   * tests); INDEXER_BOOTSTRAP defaults to head-first for a configured network.
   */
  bootstrap?: IndexerBootstrap;
  /** Blocks per history range the head-first fill replays in one step (default 4000). */
  historyRangeBlocks?: number;
  /**
   * Times of history blocks whose logs carry no `blockTimestamp` (docs/indexer.md, "Block times of
   * the history fill"): `exact` reads every such block's header; `bucketed` reads headers only at
   * 5-minute boundaries and interpolates inside them, and gives the bootstrap's creation blocks over
   * 31 days old a time inside their true UTC day (creationTimes.ts). Absent: exact (the tests that compare a
   * head-first index with a forward one to the second); INDEXER_HISTORY_BLOCK_TIMES defaults to bucketed.
   */
  historyBlockTimes?: HistoryBlockTimes;
};

export type IndexerBootstrap = 'forward' | 'head-first';
export type HistoryBlockTimes = 'bucketed' | 'exact';

type Preset = Partial<Omit<IndexerConfig, 'network' | 'factories'>> & { factories?: unknown };

const presetDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'config', 'networks');
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = /^\d+(\.\d+)?$/;

export const indexerDefaults = {
  startBlock: 0,
  batchSize: 2000,
  pollIntervalMs: 2000,
  confirmations: 0,
  minLiquidityUsd: '1000',
  usdGuard: '0.02',
  secureScoreMin: 70,
  secureMarketCapMinUsd: '50000',
  reorgDepth: 128,
  supplyRefreshBlocks: 10_000,
  standbyPollMs: 1000,
  vacuumEveryBlocks: 300,
  candlesDeferredAbove: 1000,
  circulatingRefreshMs: 600_000,
  circulatingMaxCalls: 1000,
  contractCheckIntervalMs: 21_600_000,
  contractCheckMaxCalls: 52,
  contractCheckTimeoutMs: 15_000,
  bootstrap: 'head-first',
  historyRangeBlocks: 4000,
  historyBlockTimes: 'bucketed',
} as const;

export function loadIndexerConfig(env: Env): IndexerConfig {
  const read = new EnvReader(env);
  const problems = read.problems;
  const network = read.string('INDEXER_NETWORK', 'custom');
  let preset: Preset = {};
  const presetFile = read.string('INDEXER_NETWORK_FILE') ?? (network !== 'custom' ? join(presetDir, `${network}.json`) : undefined);
  if (presetFile) {
    if (!existsSync(presetFile)) problems.push(`INDEXER_NETWORK: no preset file ${presetFile}`);
    else {
      try {
        preset = JSON.parse(readFileSync(presetFile, 'utf8')) as Preset;
      } catch (error) {
        problems.push(`${presetFile}: not valid JSON (${(error as Error).message})`);
      }
    }
  }
  // Presets of earlier versions listed factories under one key per family.
  for (const key of Object.keys(preset)) if (/Factories$/.test(key)) problems.push(`${presetFile}: ${key}: factories are now one map, "factories": { "<type>": [{ "address", "fromBlock" }] } (docs/indexer.md)`);
  const factories = readFactories(preset.factories, env, problems);
  const addresses = (name: string, fallback: string[] | undefined): string[] => {
    const raw = read.string(name);
    const list = raw === undefined ? (fallback ?? []) : raw.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = list.filter((a) => !ADDRESS.test(a));
    if (bad.length > 0) problems.push(`${name}: not addresses: ${bad.join(', ')}`);
    return list.filter((a) => ADDRESS.test(a)).map((a) => a.toLowerCase());
  };
  const address = (name: string, fallback: string | null | undefined): string | null => {
    const raw = read.string(name) ?? fallback ?? null;
    if (raw === null || raw === '' || raw === 'none') return null;
    if (!ADDRESS.test(raw)) {
      problems.push(`${name}=${JSON.stringify(raw)}: expected a 0x address`);
      return null;
    }
    return raw.toLowerCase();
  };
  const decimal = (name: string, fallback: string): string => {
    const raw = read.string(name, fallback);
    if (!DECIMAL.test(raw)) {
      problems.push(`${name}=${JSON.stringify(raw)}: expected a non-negative decimal number`);
      return fallback;
    }
    return raw;
  };
  const d = indexerDefaults;
  const chainIdRaw = read.string('INDEXER_CHAIN_ID');
  const config: IndexerConfig = {
    network,
    chainId: chainIdRaw !== undefined ? read.integer('INDEXER_CHAIN_ID', 0, 1, 2 ** 53 - 1) : preset.chainId,
    // Every factory is read from its first block unless a later start is asked for.
    startBlock: read.integer('INDEXER_START_BLOCK', preset.startBlock ?? firstFactoryBlock(factories) ?? d.startBlock, 0, 2 ** 53 - 1),
    batchSize: read.integer('INDEXER_BATCH_SIZE', preset.batchSize ?? d.batchSize, 1, 1_000_000),
    pollIntervalMs: read.integer('INDEXER_POLL_INTERVAL_MS', preset.pollIntervalMs ?? d.pollIntervalMs, 10, 3_600_000),
    confirmations: read.integer('INDEXER_CONFIRMATIONS', preset.confirmations ?? d.confirmations, 0, 10_000),
    factories,
    stablecoins: addresses('INDEXER_STABLECOINS', preset.stablecoins),
    wrappedNative: address('INDEXER_WRAPPED_NATIVE', preset.wrappedNative),
    multicall3: address('INDEXER_MULTICALL3', preset.multicall3),
    usdFeed: address('INDEXER_USD_FEED', preset.usdFeed),
    usdPeg: address('INDEXER_USD_PEG', preset.usdPeg),
    minLiquidityUsd: decimal('INDEXER_MIN_LIQUIDITY_USD', preset.minLiquidityUsd ?? d.minLiquidityUsd),
    usdGuard: decimal('INDEXER_USD_GUARD', preset.usdGuard ?? d.usdGuard),
    secureScoreMin: read.integer('INDEXER_SECURE_SCORE_MIN', preset.secureScoreMin ?? d.secureScoreMin, 0, 100),
    secureMarketCapMinUsd: decimal('INDEXER_SECURE_MARKET_CAP_MIN_USD', preset.secureMarketCapMinUsd ?? d.secureMarketCapMinUsd),
    tokenList: read.string('INDEXER_TOKEN_LIST') ?? presetPath(preset.tokenList, presetFile) ?? null,
    reorgDepth: read.integer('INDEXER_REORG_DEPTH', preset.reorgDepth ?? d.reorgDepth, 2, 100_000),
    supplyRefreshBlocks: read.integer('INDEXER_SUPPLY_REFRESH_BLOCKS', preset.supplyRefreshBlocks ?? d.supplyRefreshBlocks, 1, 100_000_000),
    standbyPollMs: read.integer('INDEXER_STANDBY_POLL_MS', d.standbyPollMs, 100, 60_000),
    vacuumEveryBlocks: read.integer('INDEXER_VACUUM_EVERY_BLOCKS', d.vacuumEveryBlocks, 0, 100_000_000),
    candlesDeferredAbove: read.integer('INDEXER_CANDLES_DEFERRED_ABOVE', d.candlesDeferredAbove, 0, 100_000_000),
    retryMaxMs: read.integer('INDEXER_RETRY_MAX_MS', 1000, 10, 600_000),
    circulatingConfig: read.string('INDEXER_CIRCULATING_CONFIG') ?? preset.circulatingConfig ?? circulatingConfigPathOf(network),
    circulatingRefreshMs: read.integer('INDEXER_CIRCULATING_REFRESH_MS', preset.circulatingRefreshMs ?? d.circulatingRefreshMs, 0, 86_400_000),
    circulatingMaxCalls: read.integer('INDEXER_CIRCULATING_MAX_CALLS', preset.circulatingMaxCalls ?? d.circulatingMaxCalls, 10, 100_000),
    contractCheckIntervalMs: read.integer('INDEXER_CONTRACT_CHECK_INTERVAL_MS', preset.contractCheckIntervalMs ?? d.contractCheckIntervalMs, 0, 30 * 86_400_000),
    contractCheckMaxCalls: read.integer('INDEXER_CONTRACT_CHECK_MAX_CALLS', preset.contractCheckMaxCalls ?? d.contractCheckMaxCalls, 0, 10_000),
    contractCheckTimeoutMs: read.integer('INDEXER_CONTRACT_CHECK_TIMEOUT_MS', preset.contractCheckTimeoutMs ?? d.contractCheckTimeoutMs, 100, 600_000),
    retention: readRetentionConfig(read),
    bootstrap: bootstrapOf(read.string('INDEXER_BOOTSTRAP', preset.bootstrap ?? d.bootstrap), problems),
    historyRangeBlocks: read.integer('INDEXER_HISTORY_RANGE_BLOCKS', preset.historyRangeBlocks ?? d.historyRangeBlocks, 1, 1_000_000),
    historyBlockTimes: historyBlockTimesOf(read.string('INDEXER_HISTORY_BLOCK_TIMES', preset.historyBlockTimes ?? d.historyBlockTimes), problems),
  };
  if (config.circulatingConfig === 'none') config.circulatingConfig = null;
  if (config.tokenList === 'none') config.tokenList = null;
  if (config.usdFeed && !config.wrappedNative) problems.push('INDEXER_USD_FEED: the feed prices the wrapped native token; set INDEXER_WRAPPED_NATIVE too');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function bootstrapOf(raw: string, problems: string[]): IndexerBootstrap {
  if (raw === 'forward' || raw === 'head-first') return raw;
  problems.push(`INDEXER_BOOTSTRAP=${JSON.stringify(raw)}: expected forward or head-first`);
  return 'forward';
}

function historyBlockTimesOf(raw: string, problems: string[]): HistoryBlockTimes {
  if (raw === 'bucketed' || raw === 'exact') return raw;
  problems.push(`INDEXER_HISTORY_BLOCK_TIMES=${JSON.stringify(raw)}: expected bucketed or exact`);
  return 'exact';
}

/** A file path named in a preset, relative to the preset's folder so no working directory matters;
 *  URLs, absolute paths and "none" as written. */
function presetPath(value: string | null | undefined, presetFile: string | undefined): string | null | undefined {
  if (typeof value !== 'string' || presetFile === undefined) return value;
  if (value === 'none' || /^https?:\/\//.test(value) || isAbsolute(value)) return value;
  return resolve(dirname(presetFile), value);
}
