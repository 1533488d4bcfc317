// The typed clients against the real app over HTTP: serialisation, success and error typing (REST and JSON-RPC).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { getAddress } from 'ethers';
import { createRpcClient, createTokenApiClient, isProblem, type CandleSeries, type PriceAt, type Problem, type Token, type TokenApiClient } from '../../src/client/index.ts';
import { appendPricePoints, rollupCandles, upsertTokens, type Database } from '../../src/db/index.ts';
import { savePriceChanges } from '../../src/db/indexer/index.ts';
import { createRpcHandler, rpcPath } from '../../src/rpc/index.ts';
import { stubChainNode } from '../helpers/mainProcess.ts';
import { testApp } from '../helpers/testApp.ts';
import { testDatabases } from '../helpers/testDatabases.ts';
import { addressOf, makeTokens } from '../helpers/tokenFixtures.ts';

const NOW = new Date('2026-11-21T12:30:00.000Z');
const UNKNOWN = '0x00000000000000000000000000000000000000ff';

describe('typed REST client', () => {
  let db: Database;
  let server: Server;
  let client: TokenApiClient;
  const seenUrls: string[] = [];

  before(async () => {
    const target = testDatabases[0];
    assert.ok(target, 'no test database configured');
    db = await target.open();
    // current prices consistent with the recorded changes, as the indexer writes them
    await upsertTokens(db, makeTokens(5).map((t, i) => ({
      ...t,
      currentPrice: i === 1 ? '2.25' : i === 2 ? '7' : null,
      priceUpdatedAt: i === 1 ? new Date('2026-11-21T12:05:00.000Z') : i === 2 ? new Date('2026-11-21T12:06:00.000Z') : null,
    })));
    await appendPricePoints(db, [
      { token: addressOf(1), price: '1.5', observedAt: new Date('2026-11-21T11:10:00.000Z'), blockNumber: 10 },
      { token: addressOf(1), price: '2.25', observedAt: new Date('2026-11-21T12:05:00.000Z'), blockNumber: 11 },
      { token: addressOf(2), price: '7', observedAt: new Date('2026-11-21T12:06:00.000Z'), blockNumber: 12 },
    ]);
    const changes = [
      { token: addressOf(1), price: '1.5', observedAt: new Date('2026-11-21T11:10:00.000Z'), blockNumber: 10 },
      { token: addressOf(1), price: '2.25', observedAt: new Date('2026-11-21T12:05:00.000Z'), blockNumber: 11 },
    ];
    await savePriceChanges(db, changes);
    await rollupCandles(db, changes, []);
    // Records what reaches the server, as sent.
    const app = testApp(db, { now: () => NOW });
    server = createServer((req, res) => {
      seenUrls.push(req.url ?? '');
      app(req, res);
    }).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    client = createTokenApiClient({ baseUrl: `http://127.0.0.1:${port}` });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.close();
  });

  it('sends addresses comma-separated and gets exactly those tokens', async () => {
    const addresses = [addressOf(0), addressOf(2), addressOf(4)];
    seenUrls.length = 0;
    const { data, error, response } = await client.GET('/tokens', {
      params: { query: { addresses, order: 'contractAddress', sort: 'asc', limit: 10 } },
    });
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.ok(data);
    assert.deepEqual(data.data.map((t) => t.contractAddress), addresses.map((a) => getAddress(a)));
    assert.equal(data.meta.totalItemsCount, 3);

    const url = new URL(seenUrls.at(-1) ?? '', 'http://x');
    assert.equal(url.pathname, '/tokens');
    assert.deepEqual(url.searchParams.getAll('addresses'), [addresses.join(',')], `server received ${url.search}`);
  });

  it('gets one token, typed', async () => {
    const { data, response } = await client.GET('/tokens/{contractAddress}', {
      params: { path: { contractAddress: addressOf(1).toUpperCase().replace('0X', '0x') } },
    });
    assert.equal(response.status, 200);
    const token: Token | undefined = data;
    assert.equal(token?.contractAddress, getAddress(addressOf(1)));
    assert.equal(token?.name, makeTokens(5)[1]?.name);
    assert.equal(typeof token?.decimals, 'number');
  });

  it('answers an unknown token with a typed 404 problem', async () => {
    const { data, error, response } = await client.GET('/tokens/{contractAddress}', {
      params: { path: { contractAddress: UNKNOWN } },
    });
    assert.equal(data, undefined);
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem: Problem | undefined = error;
    assert.equal(problem?.status, 404);
    assert.equal(typeof problem?.title, 'string');
  });

  it('reads one price history and several keyed by checksummed address', async () => {
    const one = await client.GET('/prices/{contractAddress}', { params: { path: { contractAddress: addressOf(1) } } });
    assert.equal(one.response.status, 200);
    assert.deepEqual(one.data, [
      { price: 1.5, timestamp: '2026-11-21T11:00:00.000Z' },
      { price: 2.25, timestamp: '2026-11-21T12:00:00.000Z' },
    ]);

    seenUrls.length = 0;
    const many = await client.GET('/prices', { params: { query: { addresses: [addressOf(1), addressOf(2), UNKNOWN] } } });
    assert.equal(many.response.status, 200, JSON.stringify(many.error));
    assert.deepEqual(Object.keys(many.data ?? {}).sort(), [getAddress(addressOf(1)), getAddress(addressOf(2))].sort());
    assert.deepEqual(many.data?.[getAddress(addressOf(2))], [{ price: 7, timestamp: '2026-11-21T12:00:00.000Z' }]);
    const url = new URL(seenUrls.at(-1) ?? '', 'http://x');
    assert.deepEqual(url.searchParams.getAll('addresses'), [[addressOf(1), addressOf(2), UNKNOWN].join(',')]);
  });

  it('reads candles and the price at a time, typed', async () => {
    const candles = await client.GET('/prices/{contractAddress}/candles', {
      params: { path: { contractAddress: addressOf(1) }, query: { interval: '1h', from: '2026-11-21T10:00:00Z' } },
    });
    assert.equal(candles.response.status, 200, JSON.stringify(candles.error));
    const series: CandleSeries | undefined = candles.data;
    assert.deepEqual(series?.candles.timestamp, ['2026-11-21T11:00:00.000Z', '2026-11-21T12:00:00.000Z']);
    assert.deepEqual(series?.candles.close, [1.5, 2.25]);
    const at = await client.GET('/prices/{contractAddress}/at', { params: { path: { contractAddress: addressOf(1) }, query: { time: '2026-11-21T12:00:00Z' } } });
    const price: PriceAt | undefined = at.data;
    assert.deepEqual(price, { contractAddress: getAddress(addressOf(1)), price: 1.5, timestamp: '2026-11-21T11:10:00.000Z', blockNumber: 10 });
    const neither = await client.GET('/prices/{contractAddress}/at', { params: { path: { contractAddress: addressOf(1) } } });
    assert.equal(neither.response.status, 400);
    assert.deepEqual(neither.error?.errors?.map((e) => e.field), ['time', 'block']);
  });

  it('answers a bad request with the field named', async () => {
    const { error, response } = await client.GET('/tokens', { params: { query: { limit: 0 } } });
    assert.equal(response.status, 400);
    assert.ok(error?.errors?.some((e) => e.field === 'limit'), JSON.stringify(error));
  });
  it('JSON-RPC client (the explorer\'s lookup box): results, JSON-RPC errors and HTTP problems, each typed', async () => {
    const node = await stubChainNode();
    // POST /rpc in front of a stand-in node, three requests a minute: the fourth is refused with a problem.
    const app = testApp(db, { rpc: { path: rpcPath, handler: createRpcHandler({ upstreamUrl: node.url }) }, rateLimit: { perSecond: 0, perMinute: 3 } });
    const rpcServer = createServer(app).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => rpcServer.once('listening', resolve));
    try {
      const rpc = createRpcClient({ baseUrl: `http://127.0.0.1:${(rpcServer.address() as AddressInfo).port}` });
      assert.equal((await rpc.chainId()).data, '0x7a69');
      const missing = await rpc.getTransactionByHash(`0x${'ab'.repeat(32)}`);
      assert.deepEqual([missing.data, missing.error], [null, undefined], 'an unknown transaction is null');
      const bad = await rpc.getTransactionByBlockNumberAndIndex('latest', 'zero');
      assert.ok(bad.error && !isProblem(bad.error), 'a bad parameter is a JSON-RPC error');
      assert.equal(bad.error.code, -32602);
      assert.equal(bad.response.status, 200);
      const refused = await rpc.chainId();
      assert.ok(refused.error && isProblem(refused.error), 'over the limit: the problem document');
      assert.equal(refused.response.status, 429);
      assert.equal(refused.error.title, 'Too Many Requests');
      assert.match(refused.error.detail ?? '', /More than 3 requests per minute/);
    } finally {
      rpcServer.closeAllConnections();
      await new Promise((resolve) => rpcServer.close(resolve));
      node.server.close();
    }
  });
});

describe('package export', () => {
  it('exposes the client as linea-token-api/client', async () => {
    const exported = (await import('linea-token-api/client')) as typeof import('../../src/client/index.ts');
    assert.equal(exported.createTokenApiClient, createTokenApiClient);
    assert.equal(exported.createRpcClient, createRpcClient);
  });
});
