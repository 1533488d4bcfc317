// `npm start` on the demo for the tests that measure it or its snapshot (test/main/npmStart.test.ts,
// test/main/demoSnapshot.test.ts): the real build step and process, its snapshot directory given,
// and what a user sees right after it is ready.
import assert from 'node:assert/strict';
import { checkDemoTrustCases } from '../main/demoTrustCases.ts';
import { buildAsNpmDoes, startMain, waitForUrl, type MainProcess } from './mainProcess.ts';

export { runSnapshotDir } from './runSnapshot.ts';

export type Started = { main: MainProcess; url: string; readyMs: number; buildMs: number; banner: { demoSnapshot: string; readyInMs: number; chainUrl: string } };

/**
 * `npm start` (its build step included, timed) on the demo, with its snapshot in `snapshotDir`;
 * `asAfterClone`: the build step compiles everything, as on a fresh clone's first start (otherwise
 * it finds dist/ up to date, as a user's next start does).
 */
export async function npmStart(snapshotDir: string, env: Record<string, string> = {}, options: { asAfterClone?: boolean } = {}): Promise<Started> {
  const buildMs = buildAsNpmDoes({ always: true, asAfterClone: options.asAfterClone });
  const spawnedAt = performance.now();
  const main = startMain('start', { PORT: '0', HOST: '127.0.0.1', DEMO_CHAIN_PORT: '0', DEMO_LIVE_TRADING: 'false', DEMO_SNAPSHOT_DIR: snapshotDir, ...env });
  const url = await waitForUrl(main, 120_000);
  const readyMs = buildMs + performance.now() - spawnedAt;
  const line = main.output().split('\n').find((l) => l.includes('"token API ready"'))!;
  return { main, url, readyMs, buildMs, banner: JSON.parse(line) as Started['banner'] };
}

/** The lines of a start's log that say why a snapshot (or its database part) was rebuilt. */
export const snapshotLines = (output: string) => output.split('\n').filter((l) => /demo (database )?snapshot/.test(l)).map((l) => (JSON.parse(l) as { msg: string }).msg);

/** The demo chain's head as its node answers (the chain URL the start announced). */
export async function headOf(started: Started): Promise<{ number: number; timestamp: number }> {
  const res = await fetch(started.banner.chainUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] }),
  });
  const { result } = (await res.json()) as { result: { number: string; timestamp: string } };
  return { number: Number(result.number), timestamp: Number(result.timestamp) };
}

/** The first transaction of the node's newest block that has one (at most 50 blocks back). */
export async function newestTransaction(chainUrl: string): Promise<{ block: number; hash: string }> {
  const block = async (tag: string) => {
    const res = await fetch(chainUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [tag, false] }) });
    return ((await res.json()) as { result: { number: string; transactions: string[] } }).result;
  };
  let b = await block('latest');
  for (let back = 0; b.transactions.length === 0 && back < 50; back++) b = await block(`0x${(Number(b.number) - 1).toString(16)}`);
  assert.ok(b.transactions.length > 0, 'a block with a transaction among the newest 50');
  return { block: Number(b.number), hash: b.transactions[0]! };
}

/** What a user sees right after `npm start`: indexed tokens, trust cases, price windows, candles, the RPC. */
export async function checkServedDemo(url: string, chainUrl: string): Promise<void> {
  const list = (await (await fetch(`${url}/tokens?limit=100`)).json()) as {
    data: { symbol: string; contractAddress: string; currentPrice: number | null; info: { swaps: number } }[];
    meta: { totalItemsCount: number };
  };
  assert.ok(list.meta.totalItemsCount >= 10, `${list.meta.totalItemsCount} tokens`);
  assert.ok(list.data.filter((t) => t.currentPrice !== null).length >= 8, 'priced tokens');
  assert.ok(list.data.some((t) => t.info.swaps > 0), 'swaps counted');
  await checkDemoTrustCases(url);
  // Price-change windows on the demo's 8 days: every token priced a week ago has a 7-day change,
  // and the 24 h window is last24hVariation.
  const windows = (await (await fetch(`${url}/tokens?limit=100`)).json()) as {
    data: { symbol: string; createdAt: string; currentPrice: number | null; last24hVariation: number | null; info: { priceChange: { h1: number | null; h24: number | null; d7: number | null } } }[];
  };
  const weekOld = windows.data.filter((t) => t.currentPrice !== null && Date.parse(t.createdAt) < Date.now() - 7.5 * 86_400_000);
  assert.ok(weekOld.length >= 8, `${weekOld.length} tokens priced for more than a week`);
  for (const t of weekOld) assert.equal(typeof t.info.priceChange.d7, 'number', `${t.symbol}: d7`);
  for (const t of windows.data) assert.equal(t.info.priceChange.h24, t.last24hVariation, `${t.symbol}: h24 is last24hVariation`);
  // The demo's history gives every candle interval some candles; the current close is currentPrice.
  const traded = list.data.find((t) => t.currentPrice !== null && t.info.swaps > 0)!;
  for (const interval of ['5m', '15m', '1h', '4h', '1d']) {
    const res = await fetch(`${url}/prices/${traded.contractAddress}/candles?interval=${interval}`);
    assert.equal(res.status, 200, `${interval}: ${res.status}`);
    const { candles } = (await res.json()) as { candles: { close: number[]; swaps: number[] } };
    assert.ok(candles.close.length > 0 && candles.swaps.some((n) => n > 0), `${interval}: candles with swaps`);
    assert.equal(candles.close.at(-1), traded.currentPrice, `${interval}: the current close is currentPrice`);
  }
  const at = await fetch(`${url}/prices/${traded.contractAddress}/at?time=2100-01-01T00:00:00Z`); // after the last block: the latest
  assert.equal(((await at.json()) as { price: number }).price, traded.currentPrice);
  // POST /rpc answers the node's `latest` (its last block may hold no transaction: the catch-up's
  // block at the wall clock trades only if the market moved) and finds the newest transaction.
  const ask = async (target: string, params: unknown[]) =>
    (await (await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByBlockNumberAndIndex', params }) })).json()) as { result: { hash: string } | null };
  assert.deepEqual(await ask(`${url}/rpc`, ['latest', '0x0']), await ask(chainUrl, ['latest', '0x0']), 'latest: what the node answers');
  const newest = await newestTransaction(chainUrl);
  const tx = await ask(`${url}/rpc`, [`0x${newest.block.toString(16)}`, '0x0']);
  assert.match(tx.result?.hash ?? '', /^0x[0-9a-f]{64}$/);
  assert.equal(tx.result?.hash, newest.hash, `block ${newest.block}: its first transaction`);
}

