// The lanes in front of Express must answer exactly as Express does. Each run generates 5,000
// requests from the spec (requestGenerator.ts: every parameter, values in and out of bounds,
// encodings, repeats, undeclared parameters in every form (ignored, named in X-Ignored-Parameters),
// odd paths, HEAD, conditional and compressed requests)
// and sends each one to the production handler (lanes and cache on) and to its Express app
// alone, both checked against the spec: status, body and headers must be identical. A 200 is
// asked of the production handler a second time, now from the cache, and must not change. The
// chain's head (the indexer's checkpoint) is the history's last block, half a day before the
// generator's latest times: candles end there and `/at` after it answers with `afterHead`. A
// smaller run compares the two paths with strict refusal of undeclared parameters on.
// DIFFERENTIAL_SEED=<n> replays a run; DIFFERENTIAL_COUNT=<n> changes its size.
import assert from 'node:assert/strict';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { operationAnswers } from '../../../src/api/operations/operationAnswers.ts';
import { withResponseValidation } from '../../../src/api/validation/withResponseValidation.ts';
import { operationIds, operations } from '../../../src/spec/operationTable.ts';
import { buildTradeHistory, writeTradeHistory } from '../../../bench/lib/tradeHistory.ts';
import { appendPricePoints, upsertPools, upsertTokens, type Database } from '../../../src/db/index.ts';
import { writeCheckpoint } from '../../../src/db/indexer/index.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { createPriceHistoryStore } from '../../../src/readModel/prices/createPriceHistoryStore.ts';
import { createTokenCatalog } from '../../../src/readModel/tokens/createTokenCatalog.ts';
import { recordExpressRequests, responseValidator, testApp } from '../../helpers/testApp.ts';
import { addressOf, makeTokens } from '../../helpers/tokenFixtures.ts';
import { generateRequests, TIME_BASE, type GeneratedRequest } from './requestGenerator.ts';

const COUNT = Number(process.env.DIFFERENTIAL_COUNT ?? 5000);
/** Requests of the strict-mode run (STRICT_QUERY_PARAMETERS): the same generator, fewer. */
const STRICT_COUNT = Math.ceil(COUNT / 4);
const SEED = Number(process.env.DIFFERENTIAL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const NOW = new Date('2026-11-21T12:30:00.000Z');
const HOUR = 3_600_000;

/** Headers that differ by nature between two answers (per request, or framing). */
const PER_REQUEST = new Set(['x-request-id', 'date', 'connection', 'keep-alive']);

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

function send(port: number, agent: Agent, req: GeneratedRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const r = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end();
  });
}

const decoded = (a: Answer) => (a.headers['content-encoding'] === 'gzip' && a.body.length > 0 ? gunzipSync(a.body) : a.body).toString('utf8');

/** The differences between two answers to the same request; none when they are the same. */
function differences(expected: Answer, actual: Answer): string[] {
  const out: string[] = [];
  if (expected.status !== actual.status) out.push(`status ${actual.status}, expected ${expected.status}`);
  if (decoded(expected) !== decoded(actual)) out.push(`body ${decoded(actual).slice(0, 200)}, expected ${decoded(expected).slice(0, 200)}`);
  // Express compresses on the fly (chunked); the cache sends its gzip copy with a length.
  const framing = expected.headers['content-encoding'] === 'gzip' ? new Set(['content-length', 'transfer-encoding']) : new Set<string>();
  const names = new Set([...Object.keys(expected.headers), ...Object.keys(actual.headers)]);
  for (const name of names) {
    if (PER_REQUEST.has(name) || framing.has(name)) continue;
    const a = JSON.stringify(actual.headers[name]);
    const e = JSON.stringify(expected.headers[name]);
    if (a !== e) out.push(`header ${name}: ${a}, expected ${e}`);
  }
  return out;
}

function listen(handler: RequestListener): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('lanes and Express answer alike (generated differential test)', () => {
  let db: Database;
  type Pair = { lanes: Server; express: Server; reachedExpress: string[] };
  let lenient: Pair;
  let strict: Pair;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });

  before(async () => {
    db = await openPglite();
    const tokens = makeTokens(150).map((t, i) => (i < 10 ? { ...t, priceSource: addressOf(1000 + i) } : t));
    await upsertTokens(db, tokens);
    // Three days of trades in blocks 1 to 60 (the generator's blocks and times): price changes,
    // swaps and candles for the candles and price-at routes.
    const history = buildTradeHistory({
      seed: 7, tokens: tokens.map((t, i) => ({ address: t.address, decimals: t.decimals, price: 0.5 + i })), pools: 150,
      blocks: 60, firstBlock: 1, startMs: TIME_BASE - 3 * 86_400_000, blockMs: 72 * 60_000, swapsPerBlock: 25, unpricedChance: 0.01,
    });
    await writeTradeHistory(db, history, 20);
    const head = history.lastBlock;
    await writeCheckpoint(db, { chainId: 59144, blockNumber: head, blockHash: `0x${head.toString(16).padStart(64, '0')}`, blockTime: history.blockTime(head) });
    // Pools between the first 30 tokens (some with several, liquidity ties and nulls included); the
    // first ten tokens' prices come from one of them, so their JSON embeds it.
    // Every fifth is a Uniswap V4 pool: named by its 32-byte id, some hooked, some trading native ETH.
    const v4 = (i: number) => i % 5 === 4;
    await upsertPools(db, Array.from({ length: 60 }, (_, i) => ({
      address: v4(i) ? `0x${(1000 + i).toString(16).padStart(64, 'e')}` : addressOf(1000 + i), dex: addressOf(2000 + (i % 3)),
      family: v4(i) ? 'uniswap-v4' : ['uniswap-v2', 'solidly', 'uniswap-v3', 'algebra'][i % 4]!,
      fee: i % 4 === 2 || v4(i) ? 3000 : null, stable: i % 4 === 1 && !v4(i) ? i % 8 === 1 : null,
      hooks: v4(i) && i % 10 === 9 ? addressOf(3000 + i) : null, priceSourceExclusion: v4(i) && i % 10 === 9 ? 'hook-returns-swap-delta' : null,
      token0Native: v4(i) && i % 3 === 0,
      token0: addressOf(i % 30), token0Symbol: `T${i % 30}`, token1: addressOf((i * 7 + 1) % 30 === i % 30 ? 31 : (i * 7 + 1) % 30), token1Symbol: 'Q',
      liquidity: i % 5 === 0 ? null : `${(i % 6) * 1000}.${i}`, price: i % 9 === 0 ? null : `${i}.25`, createdBlock: i,
    })));
    await appendPricePoints(db, [
      ...Array.from({ length: 30 }, (_, h) => ({ token: addressOf(1), price: `${h}.5`, observedAt: new Date(NOW.getTime() - h * HOUR), blockNumber: 1000 - h })),
      ...Array.from({ length: 40 }, (_, i) => ({ token: addressOf(i + 2), price: `${i + 1}`, observedAt: new Date(NOW.getTime() - (i % 5) * HOUR), blockNumber: 2000 + i })),
    ]);
    // Two pipelines over the same data, each with its own stores and cache; twice, strict and not.
    const stores = async () => {
      const catalog = createTokenCatalog({ db, staleMs: 3_600_000 });
      const prices = createPriceHistoryStore({ db, staleMs: 3_600_000, now: () => NOW });
      await catalog.refresh(true);
      await prices.refresh(true);
      return { catalog, prices, now: () => NOW };
    };
    const pair = async (strictQueryParameters: boolean): Promise<Pair> => {
      const production = testApp(db, { ...(await stores()), strictQueryParameters });
      const reachedExpress = recordExpressRequests(production.parts.app);
      const other = testApp(db, { ...(await stores()), strictQueryParameters });
      return { lanes: await listen(production), express: await listen(withResponseValidation(other.parts.app, responseValidator)), reachedExpress };
    };
    lenient = await pair(false);
    strict = await pair(true);
  });
  after(async () => {
    agent.destroy();
    for (const server of [lenient, strict].flatMap((p) => [p.lanes, p.express])) await new Promise((resolve) => server.close(resolve));
    await db.close();
  });

  /** Sends each request to both paths of a pair and compares the answers (and a 200 again, from the cache). */
  async function compare({ lanes, express, reachedExpress }: Pair, requests: GeneratedRequest[]) {
    const lanePort = (lanes.address() as AddressInfo).port;
    const expressPort = (express.address() as AddressInfo).port;
    const mismatches: string[] = [];
    const stats = { viaLane: 0, viaExpress: 0, cached: 0, head: 0, ok: 0, clientErrors: 0, serverErrors: 0, ignoring: 0, ignoringByLane: 0, afterHead: 0 };
    const byOperation = new Map<string, number>();
    const laneOk = new Map<string, number>(); // 200s the lane built, by operation
    const serverErrors: string[] = [];

    let next = 0;
    async function worker() {
      while (next < requests.length) {
        const req = requests[next++]!;
        const before = reachedExpress.length;
        const viaLanes = await send(lanePort, agent, req);
        const tookLane = reachedExpress.length === before;
        const viaExpress = await send(expressPort, agent, req);
        const diff = differences(viaExpress, viaLanes);
        if (diff.length) mismatches.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}${tookLane ? ' [lane]' : ''}\n    ${diff.join('\n    ')}`);
        if (viaLanes.status === 200) {
          const again = await send(lanePort, agent, req);
          const cachedDiff = differences(viaLanes, again);
          if (cachedDiff.length) mismatches.push(`${req.method} ${req.url} (second time)\n    ${cachedDiff.join('\n    ')}`);
          stats.cached++;
        }
        stats[tookLane ? 'viaLane' : 'viaExpress']++;
        if (viaLanes.status === 200 && req.method === 'GET' && decoded(viaLanes).includes('"afterHead"')) stats.afterHead++;
        if (viaLanes.headers['x-ignored-parameters'] !== undefined) {
          stats.ignoring++;
          if (tookLane && viaLanes.status === 200) stats.ignoringByLane++;
        }
        if (req.method === 'HEAD') stats.head++;
        if (viaLanes.status < 300) stats.ok++;
        else if (viaLanes.status < 500) stats.clientErrors++;
        else {
          stats.serverErrors++;
          serverErrors.push(`${req.method} ${req.url} → ${viaLanes.status} ${decoded(viaLanes).slice(0, 300)}`);
        }
        byOperation.set(req.operation, (byOperation.get(req.operation) ?? 0) + 1);
        if (tookLane && viaLanes.status === 200) laneOk.set(req.operation, (laneOk.get(req.operation) ?? 0) + 1);
      }
    }
    await Promise.all(Array.from({ length: 4 }, worker));
    return { mismatches, serverErrors, stats, byOperation, laneOk };
  }

  it(`answers ${COUNT} generated requests the same way through the lanes, from the cache and through Express`, async (t) => {
    t.diagnostic(`seed ${SEED} (DIFFERENTIAL_SEED=${SEED} replays this run)`);
    const addresses = Array.from({ length: 160 }, (_, i) => addressOf(i)); // 150 indexed, 10 not
    const { mismatches, serverErrors, stats, byOperation, laneOk } = await compare(lenient, generateRequests(COUNT, SEED, addresses));
    t.diagnostic(`${JSON.stringify(stats)} by operation ${JSON.stringify(Object.fromEntries(byOperation))}, built by the lane ${JSON.stringify(Object.fromEntries(laneOk))}`);
    assert.deepEqual(mismatches.slice(0, 10), [], `${mismatches.length} of ${COUNT} requests answered differently (seed ${SEED})`);
    assert.deepEqual(serverErrors.slice(0, 5), [], `${serverErrors.length} requests answered 5xx`);
    // The generator must reach every path: enough of each, or the comparison proves little.
    assert.ok(stats.viaLane >= COUNT * 0.2, `only ${stats.viaLane} through the lane`);
    assert.ok(stats.viaExpress >= COUNT * 0.25, `only ${stats.viaExpress} through Express`);
    assert.ok(stats.cached >= COUNT * 0.2, `only ${stats.cached} cached answers compared`);
    assert.ok(stats.head >= COUNT * 0.1, `only ${stats.head} HEAD requests`);
    // Undeclared parameters, answered by both paths: the lane's 200s and Express's answers alike.
    assert.ok(stats.ignoring >= COUNT * 0.1, `only ${stats.ignoring} answers named ignored parameters`);
    assert.ok(stats.ignoringByLane >= COUNT * 0.03, `only ${stats.ignoringByLane} lane answers ignored parameters`);
    // Prices after the chain's head (never stored by the response cache), asked of both paths.
    assert.ok(stats.afterHead >= COUNT * 0.003, `only ${stats.afterHead} answers after the head`);
    // Every operation the lane answers (but supply: no supply service in this app, every answer a 404).
    for (const id of operationIds.filter((o) => operationAnswers[o].lane && operations[o].answer.from !== 'supply')) {
      assert.ok((laneOk.get(id) ?? 0) >= COUNT * 0.01, `${id}: only ${laneOk.get(id) ?? 0} answers built by the lane`);
    }
  });

  it(`answers ${STRICT_COUNT} generated requests alike with strict refusal of undeclared parameters`, async (t) => {
    t.diagnostic(`seed ${SEED + 1}`);
    const addresses = Array.from({ length: 160 }, (_, i) => addressOf(i));
    const { mismatches, serverErrors, stats } = await compare(strict, generateRequests(STRICT_COUNT, SEED + 1, addresses));
    t.diagnostic(JSON.stringify(stats));
    assert.deepEqual(mismatches.slice(0, 10), [], `${mismatches.length} of ${STRICT_COUNT} requests answered differently (strict, seed ${SEED + 1})`);
    assert.deepEqual(serverErrors.slice(0, 5), [], `${serverErrors.length} requests answered 5xx`);
    assert.equal(stats.ignoring, 0, 'nothing is ignored with strict refusal on');
    assert.ok(stats.viaLane >= STRICT_COUNT * 0.2 && stats.cached >= STRICT_COUNT * 0.15, JSON.stringify(stats));
  });
});
