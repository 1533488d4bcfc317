import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { loadIndexerConfig } from '../../src/config/indexerConfig.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { ConfigError } from '../../src/errors/index.ts';
import { loadTokenList } from '../../src/indexer/loadTokenList.ts';

const shippedLineaList = fileURLToPath(new URL('../../config/tokenlists/linea-mainnet.json', import.meta.url));

test('the linea preset loads and env vars override it', () => {
  const config = loadIndexerConfig({ INDEXER_NETWORK: 'linea', INDEXER_BATCH_SIZE: '500', INDEXER_MIN_LIQUIDITY_USD: '2500.5' });
  assert.equal(config.chainId, 59144);
  assert.equal(config.batchSize, 500);
  assert.equal(config.minLiquidityUsd, '2500.5');
  assert.equal(config.secureMarketCapMinUsd, '50000');
  assert.equal(config.secureScoreMin, 70);
  assert.equal(config.multicall3, '0xca11bde05977b3631167028862be2a173976ca11');
  assert.ok(config.factories.v3!.length > 0 && config.stablecoins.length === 3);
  // Every factory is read from its first block: the index starts at the earliest of them.
  assert.equal(config.startBlock, Math.min(...Object.values(config.factories).flat().map((f) => f.fromBlock)));
  assert.deepEqual(config.factories['syncswap-classic'], [{
    address: '0x37bac764494c8db4e54bde72f6965bea9fa0ac2d', fromBlock: 716, name: 'SyncSwap V1 classic',
    source: 'a DefiLlama-style SyncSwap adapter for Linea; its logs start at block 716',
  }]);
});

test('defaults without a preset', () => {
  const config = loadIndexerConfig({});
  assert.equal(config.startBlock, 0);
  assert.equal(config.batchSize, 2000);
  assert.deepEqual(config.factories, {});
  assert.equal(config.wrappedNative, null);
  assert.equal(config.tokenList, null);
});

test('bootstrap: head-first with 4000-block history ranges unless INDEXER_BOOTSTRAP and INDEXER_HISTORY_RANGE_BLOCKS say otherwise', () => {
  const config = loadIndexerConfig({});
  assert.equal(config.bootstrap, 'head-first');
  assert.equal(config.historyRangeBlocks, 4000);
  const set = loadIndexerConfig({ INDEXER_BOOTSTRAP: 'forward', INDEXER_HISTORY_RANGE_BLOCKS: '250' });
  assert.equal(set.bootstrap, 'forward');
  assert.equal(set.historyRangeBlocks, 250);
  assert.throws(() => loadIndexerConfig({ INDEXER_BOOTSTRAP: 'backwards' }), (e) => e instanceof ConfigError && /INDEXER_BOOTSTRAP/.test(e.problems.join()));
});

test('history block times: bucketed unless INDEXER_HISTORY_BLOCK_TIMES=exact; another value is an error naming the variable', () => {
  assert.equal(loadIndexerConfig({}).historyBlockTimes, 'bucketed');
  assert.equal(loadIndexerConfig({ INDEXER_HISTORY_BLOCK_TIMES: 'exact' }).historyBlockTimes, 'exact');
  assert.equal(loadIndexerConfig({ INDEXER_HISTORY_BLOCK_TIMES: 'bucketed' }).historyBlockTimes, 'bucketed');
  assert.throws(
    () => loadIndexerConfig({ INDEXER_HISTORY_BLOCK_TIMES: 'interpolated' }),
    (e) => e instanceof ConfigError && e.problems.some((p) => p === 'INDEXER_HISTORY_BLOCK_TIMES="interpolated": expected bucketed or exact'),
  );
});

test('every bad value is reported at once, the node settings with the indexer settings', () => {
  assert.throws(
    () => loadConfig({
      INDEXER_NETWORK: 'nowhere', INDEXER_BATCH_SIZE: '0', INDEXER_V2_FACTORIES: '0x12,nope',
      INDEXER_WRAPPED_NATIVE: 'weth', INDEXER_MIN_LIQUIDITY_USD: '-5', CHAIN_RPC_URL: 'ftp://x',
    }),
    (e) => e instanceof ConfigError && e.problems.length === 6,
  );
});

test('factories: every preset factory has a fromBlock and a source; the environment replaces a type, with addr@fromBlock', () => {
  const linea = loadIndexerConfig({ INDEXER_NETWORK: 'linea' });
  for (const [type, list] of Object.entries(linea.factories)) {
    for (const f of list) {
      assert.ok(Number.isSafeInteger(f.fromBlock) && f.fromBlock >= 0, `${type} ${f.address}: fromBlock`);
      assert.ok(f.source && f.source.length > 10, `${type} ${f.address}: its source is named`);
    }
  }
  const set = loadIndexerConfig({
    INDEXER_NETWORK: 'linea', INDEXER_V2_FACTORIES: '0x00000000000000000000000000000000000000A1@500,0x00000000000000000000000000000000000000a2',
    INDEXER_PANCAKE_V3_FACTORIES: '0x00000000000000000000000000000000000000a3@7',
  });
  assert.deepEqual(set.factories.v2, [{ address: '0x00000000000000000000000000000000000000a1', fromBlock: 500 }, { address: '0x00000000000000000000000000000000000000a2', fromBlock: 0 }]);
  assert.deepEqual(set.factories['pancake-v3'], [{ address: '0x00000000000000000000000000000000000000a3', fromBlock: 7 }]);
  assert.deepEqual(set.factories.algebra, linea.factories.algebra, 'types not set in the environment keep the preset list');
  assert.equal(loadIndexerConfig({ INDEXER_V2_FACTORIES: '0x00000000000000000000000000000000000000a1@9' }).startBlock, 9);
  assert.equal(loadIndexerConfig({ INDEXER_V2_FACTORIES: '0x00000000000000000000000000000000000000a1@9', INDEXER_START_BLOCK: '3' }).startBlock, 3);
  assert.throws(() => loadIndexerConfig({ INDEXER_V2_FACTORIES: '0x12@x' }), (e: unknown) => e instanceof ConfigError && /INDEXER_V2_FACTORIES: not an address or address@fromBlock: "0x12@x"/.test(e.message));
});

test('a preset of an earlier version (one key per family) is named, not silently read as no factories', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preset-old-'));
  try {
    const file = join(dir, 'old.json');
    writeFileSync(file, JSON.stringify({ v2Factories: ['0x114A43DF6C5f54EBB8A9d70Cd1951D3dD68004c7'] }));
    assert.throws(() => loadIndexerConfig({ INDEXER_NETWORK_FILE: file }), (e: unknown) => e instanceof ConfigError && /v2Factories: factories are now one map/.test(e.message));
    writeFileSync(file, JSON.stringify({ factories: { v2: [{ address: '0x12', fromBlock: -1, extra: 1 }] } }));
    assert.throws(() => loadIndexerConfig({ INDEXER_NETWORK_FILE: file }), (e: unknown) => e instanceof ConfigError && e.problems.length === 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the linea preset ships a snapshot of the Linea token list, found from any working directory', async () => {
  const cwd = process.cwd();
  const elsewhere = mkdtempSync(join(tmpdir(), 'preset-cwd-'));
  try {
    process.chdir(elsewhere);
    const config = loadIndexerConfig({ INDEXER_NETWORK: 'linea' });
    assert.equal(config.tokenList, shippedLineaList);
    const entries = await loadTokenList(config.tokenList!, config.chainId);
    assert.ok(entries.length >= 80, `${entries.length} entries`);
    const addresses = new Set(entries.map((t) => t.address));
    for (const a of [...config.stablecoins, config.wrappedNative!]) assert.ok(addresses.has(a), `${a} (a preset stablecoin or WETH) is listed`);
    assert.equal(entries.find((t) => t.symbol === 'LINEA')?.address, '0x1789e0043623282d5dcc7f213d703c6d8bafbb04');
  } finally {
    process.chdir(cwd);
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('a relative token list in a preset is relative to the preset; the variable, URLs and none are as written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preset-'));
  try {
    const presetFile = join(dir, 'net.json');
    const preset = (tokenList: string) => writeFileSync(presetFile, JSON.stringify({ chainId: 1, tokenList }));
    preset('lists/mine.json');
    assert.equal(loadIndexerConfig({ INDEXER_NETWORK_FILE: presetFile }).tokenList, join(dir, 'lists', 'mine.json'));
    assert.equal(loadIndexerConfig({ INDEXER_NETWORK_FILE: presetFile, INDEXER_TOKEN_LIST: 'here.json' }).tokenList, 'here.json');
    assert.equal(loadIndexerConfig({ INDEXER_NETWORK_FILE: presetFile, INDEXER_TOKEN_LIST: 'none' }).tokenList, null);
    preset('https://example.org/list.json');
    assert.equal(loadIndexerConfig({ INDEXER_NETWORK_FILE: presetFile }).tokenList, 'https://example.org/list.json');
    preset('none');
    assert.equal(loadIndexerConfig({ INDEXER_NETWORK_FILE: presetFile }).tokenList, null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('retention: defaults, durations and forever, and every bad value named', () => {
  const day = 86_400_000;
  const defaults = loadIndexerConfig({}).retention!;
  assert.deepEqual([defaults.swaps, defaults.priceChanges, defaults.pricePoints], [2 * day, 90 * day, 2 * day]);
  assert.deepEqual(defaults.candles, { '5m': 30 * day, '15m': 90 * day, '1h': 365 * day, '4h': 730 * day, '1d': null });
  const set = loadIndexerConfig({
    RETENTION_SWAPS: '7d', RETENTION_PRICE_CHANGES: 'forever', RETENTION_CANDLES_5M: '600m', RETENTION_CANDLES_1D: '3650d', RETENTION_BATCH_ROWS: '1000',
  }).retention!;
  assert.deepEqual([set.swaps, set.priceChanges, set.candles['5m'], set.candles['1d'], set.batchRows], [7 * day, null, 600 * 60_000, 3650 * day, 1000]);
  assert.throws(
    () => loadIndexerConfig({ RETENTION_SWAPS: '1d', RETENTION_PRICE_POINTS: '2 days', RETENTION_CANDLES_1H: '99h', RETENTION_EVERY_BLOCKS: '0' }),
    (e) => e instanceof ConfigError && e.problems.length === 4
      && e.problems.some((p) => p.startsWith('RETENTION_SWAPS="1d": must be at least 2d'))
      && e.problems.some((p) => p.startsWith('RETENTION_CANDLES_1H="99h": must be at least 100h')),
  );
});

test('the USD anchor and the isSecure thresholds: the Linea preset, overrides, and every bad value named', () => {
  const linea = loadIndexerConfig({ INDEXER_NETWORK: 'linea' });
  assert.equal(linea.usdFeed, '0x3c6cd9cc7c7a4c2cf5a82734cd249d7d593354da', 'Chainlink ETH/USD on Linea');
  assert.deepEqual([linea.secureScoreMin, linea.secureMarketCapMinUsd, linea.usdGuard], [70, '50000', '0.02']);
  assert.equal(loadIndexerConfig({ INDEXER_NETWORK: 'linea', INDEXER_USD_GUARD: '0.05' }).usdGuard, '0.05');
  assert.throws(() => loadIndexerConfig({ INDEXER_NETWORK: 'linea', INDEXER_USD_GUARD: '-1' }),
    (e) => e instanceof ConfigError && e.problems.some((p) => p.startsWith('INDEXER_USD_GUARD="-1": expected a non-negative decimal')));
  const set = loadIndexerConfig({
    INDEXER_NETWORK: 'linea', INDEXER_USD_FEED: 'none', INDEXER_USD_PEG: '0xA219439258ca9da29E9Cc4cE5596924745e12B93',
    INDEXER_SECURE_SCORE_MIN: '80', INDEXER_SECURE_MARKET_CAP_MIN_USD: '1000000.5',
  });
  assert.deepEqual([set.usdFeed, set.usdPeg, set.secureScoreMin, set.secureMarketCapMinUsd], [null, '0xa219439258ca9da29e9cc4ce5596924745e12b93', 80, '1000000.5']);
  assert.throws(
    () => loadIndexerConfig({
      INDEXER_USD_FEED: '0x3c6Cd9Cc7c7a4c2Cf5a82734CD249D7D593354dA', INDEXER_USD_PEG: 'usdc',
      INDEXER_SECURE_SCORE_MIN: '101', INDEXER_SECURE_MARKET_CAP_MIN_USD: '-5',
    }),
    (e) => e instanceof ConfigError
      && ['INDEXER_USD_FEED', 'INDEXER_USD_PEG', 'INDEXER_SECURE_SCORE_MIN', 'INDEXER_SECURE_MARKET_CAP_MIN_USD'].every((name) => e.problems.some((p) => p.startsWith(name))),
  );
});
