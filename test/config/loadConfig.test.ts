import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { ConfigError } from '../../src/errors/index.ts';

describe('loadConfig', () => {
  it('runs with no configuration at all: demo chain, embedded database, port 3000', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.chain.url, undefined);
    assert.equal(config.chain.requestsPerSecond, 0, 'the embedded demo node has no budget');
    assert.equal(config.pgliteDir, undefined);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.validateResponses, false);
    assert.equal(config.rpc.maxBatchSize, 100);
    assert.equal(config.http.trustProxy, false);
    assert.equal(config.http.rateLimitPerSecond, undefined, 'the mode picks the default');
    assert.equal(config.http.responseCacheMb, 2);
    assert.equal(config.http.strictQueryParameters, false, 'undeclared query parameters are ignored by default');
    assert.deepEqual(config.databaseTimeouts, { connectTimeoutMs: 5000, statementTimeoutMs: 15_000, queryTimeoutMs: 20_000, idleTimeoutMs: 30_000, keepAliveDelayMs: 10_000 });
  });

  it('reads the database timeouts', () => {
    const config = loadConfig({
      DB_CONNECT_TIMEOUT_MS: '1000', DB_STATEMENT_TIMEOUT_MS: '2000', DB_QUERY_TIMEOUT_MS: '3000', DB_IDLE_TIMEOUT_MS: '4000', DB_KEEPALIVE_DELAY_MS: '5000',
    });
    assert.deepEqual(config.databaseTimeouts, { connectTimeoutMs: 1000, statementTimeoutMs: 2000, queryTimeoutMs: 3000, idleTimeoutMs: 4000, keepAliveDelayMs: 5000 });
  });

  it('reads the fault settings of issue 30: start-up retries, indexer retries, the RPC share window, readiness details', () => {
    const defaults = loadConfig({});
    assert.deepEqual(defaults.databaseRetry, { initialMs: 250, maxMs: 1000 });
    assert.equal(defaults.indexer.retryMaxMs, 1000);
    assert.equal(defaults.rpc.shareWindowMs, 250);
    assert.equal(defaults.http.readyzErrorDetails, false);
    const set = loadConfig({ DB_START_RETRY_INITIAL_MS: '100', DB_START_RETRY_MAX_MS: '2000', INDEXER_RETRY_MAX_MS: '500', RPC_SHARE_WINDOW_MS: '0', READYZ_ERROR_DETAILS: 'true' });
    assert.deepEqual(set.databaseRetry, { initialMs: 100, maxMs: 2000 });
    assert.equal(set.indexer.retryMaxMs, 500);
    assert.equal(set.rpc.shareWindowMs, 0);
    assert.equal(set.http.readyzErrorDetails, true);
    assert.throws(() => loadConfig({ DB_START_RETRY_MAX_MS: 'soon' }), /DB_START_RETRY_MAX_MS="soon"/);
  });

  it('reads the price changes above which a followed batch rolls its candles up after its commit', () => {
    assert.equal(loadConfig({}).indexer.candlesDeferredAbove, 1000);
    assert.equal(loadConfig({ INDEXER_CANDLES_DEFERRED_ABOVE: '250' }).indexer.candlesDeferredAbove, 250);
    assert.throws(() => loadConfig({ INDEXER_CANDLES_DEFERRED_ABOVE: 'many' }), /INDEXER_CANDLES_DEFERRED_ABOVE="many"/);
    assert.throws(() => loadConfig({ INDEXER_CANDLES_DEFERRED_ABOVE: '-1' }), /INDEXER_CANDLES_DEFERRED_ABOVE/);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/tokens',
      CHAIN_RPC_URL: 'https://rpc.linea.build',
      LOG_LEVEL: 'debug',
      VALIDATE_RESPONSES: 'true',
      RPC_MAX_BATCH_SIZE: '20',
      TRUST_PROXY: '2',
      RATE_LIMIT_PER_SECOND: '0',
      RATE_LIMIT_PER_MINUTE: '600',
      REDIS_URL: 'redis://cache:6379',
      RESPONSE_CACHE_MB: '64',
      STRICT_QUERY_PARAMETERS: 'true',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, 'postgres://u@db:5432/tokens');
    assert.equal(config.chain.url, 'https://rpc.linea.build');
    assert.equal(config.chain.requestsPerSecond, 25, 'a node given by URL is budgeted as a hosted provider');
    assert.equal(config.logLevel, 'debug');
    assert.equal(config.validateResponses, true);
    assert.equal(config.rpc.maxBatchSize, 20);
    assert.equal(config.http.trustProxy, 2);
    assert.equal(config.http.rateLimitPerSecond, 0);
    assert.equal(config.http.rateLimitPerMinute, 600);
    assert.equal(config.http.redisUrl, 'redis://cache:6379');
    assert.equal(config.http.responseCacheMb, 64);
    assert.equal(config.http.strictQueryParameters, true);
  });

  it('reads the node settings, and the INDEXER_RPC_* names of earlier versions where the new ones are unset', () => {
    const config = loadConfig({
      CHAIN_RPC_URL: 'https://user:key@rpc.example/v3/k', CHAIN_RPC_REQUESTS_PER_SECOND: '0', CHAIN_RPC_MAX_CONCURRENCY: '4',
      CHAIN_RPC_MAX_BATCH: '10', INDEXER_RPC_TIMEOUT_MS: '2000', INDEXER_RPC_MAX_RETRIES: '7', CHAIN_RPC_MAX_RETRIES: '3',
    });
    assert.deepEqual(config.chain, { url: 'https://user:key@rpc.example/v3/k', timeoutMs: 2000, maxRetries: 3, requestsPerSecond: 0, maxConcurrency: 4, maxBatchSize: 10 });
  });

  it('holds the indexer and supply settings, read in the same pass', () => {
    const config = loadConfig({ INDEXER_NETWORK: 'linea', SUPPLY_CACHE_SECONDS: '9' });
    assert.equal(config.indexer.network, 'linea');
    assert.equal(config.indexer.chainId, 59144);
    assert.equal(config.supply.cacheSeconds, 9);
  });

  it('collects the problems of every part into one ConfigError', () => {
    assert.throws(() => loadConfig({ PORT: 'x', INDEXER_BATCH_SIZE: '0', SUPPLY_CACHE_SECONDS: 'five', CHAIN_RPC_REQUESTS_PER_SECOND: '-1' }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 4, error.message);
      return true;
    });
  });

  const bad: [string, string, RegExp][] = [
    ['PORT', '70000', /PORT="70000": expected an integer from 0 to 65535/],
    ['PORT', 'http', /PORT="http"/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: expected a URL with scheme postgres or postgresql/],
    ['CHAIN_RPC_URL', 'localhost:8545', /CHAIN_RPC_URL: expected a URL with scheme http or https/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL="loud": expected one of fatal, error/],
    ['VALIDATE_RESPONSES', 'maybe', /VALIDATE_RESPONSES="maybe": expected true or false/],
    ['RPC_MAX_BATCH_SIZE', '0', /RPC_MAX_BATCH_SIZE="0"/],
    ['RATE_LIMIT_PER_SECOND', '-1', /RATE_LIMIT_PER_SECOND="-1"/],
    ['RESPONSE_CACHE_MB', '0', /RESPONSE_CACHE_MB="0": expected an integer from 1 to 4096/],
    ['REDIS_URL', 'http://cache', /REDIS_URL: expected a URL with scheme redis or rediss/],
    ['DB_CONNECT_TIMEOUT_MS', '0', /DB_CONNECT_TIMEOUT_MS="0": expected an integer from 100/],
    ['DB_QUERY_TIMEOUT_MS', 'soon', /DB_QUERY_TIMEOUT_MS="soon"/],
  ];
  for (const [name, value, message] of bad) {
    it(`names ${name}=${value}`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, message);
        return true;
      });
    });
  }

  it('reports every bad value at once', () => {
    assert.throws(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 2);
      return true;
    });
  });
});
