import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadIndexerConfig } from '../../src/config/indexerConfig.ts';
import { ConfigError } from '../../src/errors/index.ts';

test('the linea preset loads and env vars override it', () => {
  const config = loadIndexerConfig({ INDEXER_NETWORK: 'linea', INDEXER_BATCH_SIZE: '500', INDEXER_MIN_LIQUIDITY_USD: '2500.5' });
  assert.equal(config.chainId, 59144);
  assert.equal(config.batchSize, 500);
  assert.equal(config.minLiquidityUsd, '2500.5');
  assert.equal(config.secureFdvMinUsd, '50000');
  assert.equal(config.multicall3, '0xca11bde05977b3631167028862be2a173976ca11');
  assert.ok(config.v3Factories.length > 0 && config.stablecoins.length === 3);
});

test('defaults without a preset', () => {
  const config = loadIndexerConfig({});
  assert.equal(config.startBlock, 0);
  assert.equal(config.batchSize, 2000);
  assert.deepEqual(config.v2Factories, []);
  assert.equal(config.wrappedNative, null);
  assert.equal(config.tokenList, null);
});

test('every bad value is reported at once', () => {
  assert.throws(
    () => loadIndexerConfig({
      INDEXER_NETWORK: 'nowhere', INDEXER_BATCH_SIZE: '0', INDEXER_V2_FACTORIES: '0x12,nope',
      INDEXER_WRAPPED_NATIVE: 'weth', INDEXER_MIN_LIQUIDITY_USD: '-5', CHAIN_RPC_URL: 'ftp://x',
    }),
    (e) => e instanceof ConfigError && e.problems.length === 6,
  );
});
