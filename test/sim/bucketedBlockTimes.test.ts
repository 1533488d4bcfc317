// Bucketed block times (issue 35) end to end: a head-first fill of the simulated network whose logs
// carry no blockTimestamp, in bucketed mode, ends with the same candles, hourly points (hour, price,
// block), 24 h and 1 h/6 h figures as a fill whose logs carry it (exact times), each swap in its true
// 5-minute bucket, the simulator's truth for the 24 h swap counts, and far fewer eth_getBlockByNumber
// requests than the exact mode without blockTimestamp.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { checkAgainstTruth } from '../../bench/index/checkTruth.ts';
import { SimChain } from '../../sim/chain.ts';
import { presetOf } from '../../sim/preset.ts';
import { parseProvider } from '../../sim/provider.ts';
import { startSimServer, type SimServer } from '../../sim/server.ts';
import { computeTruth } from '../../sim/truth.ts';
import { createChainClient } from '../../src/chain/index.ts';
import { loadIndexerConfig, type IndexerConfig } from '../../src/config/indexerConfig.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { snapshotDb } from '../indexer/helpers/snapshotDb.ts';

let chain: SimChain;
let config: IndexerConfig;
const servers: SimServer[] = [];

before(() => {
  // Busier than demo-size's default: most blocks of the trading window hold a swap, as on Linea.
  chain = new SimChain({ profile: 'demo-size', seed: 1, overrides: { swapsPerDay: 30_000 } });
  const dir = mkdtempSync(join(tmpdir(), 'sim-preset-'));
  const file = join(dir, 'preset.json');
  writeFileSync(file, JSON.stringify(presetOf(chain)));
  config = { ...loadIndexerConfig({ INDEXER_NETWORK_FILE: file }), contractCheckMaxCalls: 0, historyRangeBlocks: 1000 };
});
after(async () => {
  for (const s of servers) await s.close();
});

/** A head-first fill to the end through its own simulator server (requests counted there). */
async function fillHeadFirst(timestamps: boolean, historyBlockTimes: 'bucketed' | 'exact') {
  const server = await startSimServer(chain, { provider: parseProvider(`rps=inf,rtt=0,timestamps=${timestamps ? 1 : 0},range=100000,results=1000000`) });
  servers.push(server);
  const client = createChainClient({ url: server.url });
  const db = await openPglite();
  try {
    const indexer = createIndexer({ db, chain: client, config: { ...config, historyBlockTimes } });
    let headersRead = 0;
    let bootstrapHeaders = 0;
    let fills = 0;
    for (let step = 0; ; step++) {
      assert.ok(step < 200, 'the fill completes');
      const result = await indexer.syncOnce();
      bootstrapHeaders += result.bootstrap?.headersRead ?? 0;
      if (result.fill) {
        headersRead += result.fill.headersRead;
        fills++;
      }
      if (result.caughtUp) break;
    }
    const snapshot = await snapshotDb(db);
    const truth = await checkAgainstTruth((sql) => db.query(sql), computeTruth(chain));
    return { snapshot, truth, headersRead, bootstrapHeaders, fills, getBlockByNumber: server.stats().byMethod.eth_getBlockByNumber ?? 0 };
  } finally {
    client.destroy();
    await db.close();
  }
}

test('head-first without blockTimestamp, bucketed: the candles, hourly points and 24 h figures of exact times, with a few headers per 5-minute bucket', async () => {
  assert.equal(loadIndexerConfig({}).historyBlockTimes, 'bucketed', 'the default');
  const exact = await fillHeadFirst(true, 'exact');
  const bucketed = await fillHeadFirst(false, 'bucketed');
  const perHeader = await fillHeadFirst(false, 'exact');

  const a = exact.snapshot;
  const b = bucketed.snapshot;
  assert.ok(b.swaps.length > 500 && b.candles.length > 100 && b.pricePoints.length > 50, `${b.swaps.length} swaps, ${b.candles.length} candles`);
  assert.deepEqual(b.candles, a.candles, 'candles (5 min and up) equal');
  const hourly = (rows: Record<string, unknown>[]) => rows.map(({ observed_at: _t, ...r }) => r);
  assert.deepEqual(hourly(b.pricePoints), hourly(a.pricePoints), 'hourly points: same hour, price and block');
  assert.deepEqual(b.pools, a.pools, 'pools, their 24 h swaps and volume included');
  const bucket = (d: unknown) => (d instanceof Date ? Math.floor(d.getTime() / 300_000) : d);
  // A price's time is its swap's: in its true bucket, the second interpolated.
  const tokenKey = (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, price_updated_at: bucket(r.price_updated_at) }));
  assert.deepEqual(tokenKey(b.tokens), tokenKey(a.tokens), 'tokens: 24 h counts, volume, variation, 1 h / 6 h changes');
  assert.ok(b.tokens.some((r, i) => (r.price_updated_at as Date)?.getTime() !== (a.tokens[i]!.price_updated_at as Date)?.getTime()), 'some price times are interpolated');
  const swapKey = (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, occurred_at: bucket(r.occurred_at) }));
  assert.deepEqual(swapKey(b.swaps), swapKey(a.swaps), 'every swap in its true 5-minute bucket');
  const exactSeconds = b.swaps.filter((r, i) => (r.occurred_at as Date).getTime() === (a.swaps[i]!.occurred_at as Date).getTime()).length;
  const errors = b.swaps.map((r, i) => Math.abs((r.occurred_at as Date).getTime() - (a.swaps[i]!.occurred_at as Date).getTime()) / 1000);
  const maxError = Math.max(...errors);
  const meanError = errors.reduce((x, y) => x + y, 0) / errors.length;
  assert.ok(maxError < 300, 'the second is off by less than a bucket');
  assert.deepEqual(bucketed.truth.examples, []);
  assert.ok(bucketed.truth.ok, 'the simulator\'s truth (24 h swaps per token, prices, pool states)');

  // The fill reaches the start block (the chain is younger than 7 days).
  const buckets = Math.ceil((chain.timestamp(chain.head) - chain.timestamp(config.startBlock)) / 300);
  const report = {
    swaps: b.swaps.length, exactSeconds, maxErrorS: maxError, meanErrorS: Number(meanError.toFixed(1)), buckets, fills: bucketed.fills,
    getBlockByNumber: { withTimestamps: exact.getBlockByNumber, bucketed: bucketed.getBlockByNumber, exactWithout: perHeader.getBlockByNumber },
    headersRead: { withTimestamps: exact.headersRead, bucketed: bucketed.headersRead, exactWithout: perHeader.headersRead, catalogue: perHeader.bootstrapHeaders },
  };
  process.stdout.write(`# ${JSON.stringify(report)}\n`);
  const read = (r: typeof exact) => r.headersRead + r.bootstrapHeaders;
  // Every header request is one the fill or the catalogue counted, or a step's checkpoint check.
  for (const run of [exact, bucketed, perHeader]) assert.equal(run.getBlockByNumber, read(run) + run.fills, 'headersRead counts the headers read');
  // The catalogue's creation-block headers are read either way (exact): the fill's are compared.
  assert.ok(bucketed.headersRead * 5 < perHeader.headersRead, `far fewer headers in the fill: ${JSON.stringify(report.headersRead)}`);
  assert.ok(bucketed.getBlockByNumber * 4 < perHeader.getBlockByNumber, `far fewer header requests: ${JSON.stringify(report.getBlockByNumber)}`);
  assert.ok(bucketed.headersRead <= 5 * buckets + 2 * bucketed.fills, `a few headers per bucket: ${bucketed.headersRead} for ${buckets} buckets`);
});
