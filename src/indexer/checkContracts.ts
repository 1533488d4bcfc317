// Contract checks beside the indexer (docs/security-score.md, "Contract checks"). readContractChecks
// reads the picked tokens' contracts and simulated sales at the chain head while the indexer goes
// on: it is bounded in calls (pickContractChecks) and in time (a token whose check has not finished
// in time is dropped and picked again); a token whose reads fail keeps its previous findings.
// storeContractChecks then writes what was read and rescores the checked tokens, in one fenced
// transaction, between two of the indexer's steps.
import type { ChainClient } from '../chain/index.ts';
import { readCheckpoint } from '../db/indexer/index.ts';
import { recentSwaps, saveContractChecks, tokensWithSwaps, type ContractCheckRow } from '../db/index.ts';
import { indexerDefaults } from '../config/indexerConfig.ts';
import type { IndexerContext } from './IndexerContext.ts';
import type { IndexerState } from './state/IndexerState.ts';
import { createPoolFigures } from './pricing/poolFigures.ts';
import { familyOf } from './families/index.ts';
import { sourceKindOf } from './pricing/priceToken.ts';
import { writeTokenTrust } from './trust/writeTokenTrust.ts';
import type { ContractFindings } from './contractChecks/ContractFindings.ts';
import { checkSellability } from './contractChecks/checkSellability.ts';
import { pickContractChecks } from './contractChecks/pickContractChecks.ts';
import { ownerCalls, proxyAndPowers, readProxy } from './contractChecks/readProxyAndPowers.ts';

export type ContractCheck = { token: string; blockNumber: number; checkedAt: Date; findings: ContractFindings };
export type ContractCheckRound = { checks: ContractCheck[]; picked: number; failed: number; timedOut: number; calls: number; ms: number };

/** The chain head the checks read at, and its chain time (the interval's clock). */
export type CheckHead = { block: number; time: Date };

/** `maxFreshCalls`: the calls never-checked tokens may take in this round (default: the configured `contractCheckMaxCalls`). */
export async function readContractChecks(
  ctx: IndexerContext, state: IndexerState, head: CheckHead, skip: ReadonlySet<string> = new Set(),
  options: { maxFreshCalls?: number; onPicked?: (neverChecked: readonly string[]) => void } = {},
): Promise<ContractCheckRound> {
  const started = performance.now();
  const config = ctx.config;
  const figures = createPoolFigures(state);
  const priced = [...state.prices].filter(([t, p]) => p.price !== null && !skip.has(t)).map(([t]) => t);
  const ready = await checkInputsReady(ctx, state, priced, head);
  const picked = pickContractChecks({
    priced,
    ready,
    lastChecked: (t) => state.contractChecks.get(t)?.checkedAt,
    liquidity: (t) => figures.tokenLiquidity(t),
    now: head.time,
    intervalMs: config.contractCheckIntervalMs ?? indexerDefaults.contractCheckIntervalMs,
    maxCalls: config.contractCheckMaxCalls ?? indexerDefaults.contractCheckMaxCalls,
    maxFreshCalls: options.maxFreshCalls,
  });
  options.onPicked?.(picked.filter((t) => !state.contractChecks.has(t)));
  const round: ContractCheckRound = { checks: [], picked: picked.length, failed: 0, timedOut: 0, calls: 0, ms: 0 };
  if (picked.length === 0) return round;

  const chain = countingChain(ctx.checksChain, round);
  const done: ContractCheck[] = [];
  const checks = picked.map(async (token) => {
    try {
      done.push({ token, blockNumber: head.block, checkedAt: head.time, findings: await checkToken(ctx, chain, state, token, head.block) });
    } catch (error) {
      round.failed++;
      ctx.logger.warn({ err: error, token, block: head.block }, 'contract check failed; previous findings kept, checked again next round');
    }
  });
  const timeoutMs = config.contractCheckTimeoutMs ?? indexerDefaults.contractCheckTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(checks), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  // Checks still running are dropped: their tokens are picked again by the next round.
  round.checks = done.splice(0);
  round.timedOut = picked.length - round.checks.length - round.failed;
  round.ms = Math.round(performance.now() - started);
  return round;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * A check reads the token's latest stored buy and sell (their receipts, the buyer's balance). While
 * a head-first fill has not reached 7 days back, a never-checked token is ready only once a swap of
 * it is stored (the fill goes newest first, so that is its latest); once the 7-day window (or all
 * history) is filled, every token is (one without a swap then has none to find).
 */
async function checkInputsReady(ctx: IndexerContext, state: IndexerState, priced: readonly string[], head: CheckHead): Promise<((token: string) => boolean) | undefined> {
  const history = (await readCheckpoint(ctx.db))?.history;
  if (!history || history.complete || history.fromTime.getTime() <= head.time.getTime() - WEEK_MS) return undefined;
  const unchecked = priced.filter((t) => !state.contractChecks.has(t));
  const withSwaps = await tokensWithSwaps(ctx.db, unchecked);
  return (token) => withSwaps.has(token);
}

/**
 * Stores checks and rescores the checked tokens; `indexed` is the checkpoint the write must continue
 * from. Every commit leaves each token's score as at its checkpoint's time (the batch, fill, bootstrap
 * and rollback write it there), so at that same time only the findings just stored can move a score.
 */
export async function storeContractChecks(ctx: IndexerContext, state: IndexerState, checks: readonly ContractCheck[], indexed: { block: number; time: Date }): Promise<{ rescored: number }> {
  if (checks.length === 0) return { rescored: 0 };
  const rows: ContractCheckRow[] = checks.map((c) => ({ token: c.token, blockNumber: c.blockNumber, checkedAt: c.checkedAt, findings: JSON.stringify(c.findings) }));
  return ctx.db.transaction(async (tx) => {
    await ctx.fence(tx, indexed.block);
    await saveContractChecks(tx, rows);
    for (const c of checks) state.contractChecks.set(c.token, { checkedAt: c.checkedAt, blockNumber: c.blockNumber, findings: c.findings });
    const { scored } = await writeTokenTrust(tx, ctx, state, createPoolFigures(state), indexed.time, { since: indexed.time, changed: new Set(checks.map((c) => c.token)) });
    return { rescored: scored };
  });
}

async function checkToken(ctx: IndexerContext, chain: ChainClient, state: IndexerState, token: string, head: number): Promise<ContractFindings> {
  const multicall = ctx.config.multicall3;
  const source = state.prices.get(token)?.source ?? null;
  const pool = source && sourceKindOf(ctx.pricing, token, source) === 'pool' ? source : null;
  // The contract that holds a pool's tokens and emits its swaps: the pool, or a singleton's manager (Uniswap V4).
  const holder = (id: string) => {
    const stored = state.pools.get(id);
    return stored && familyOf(stored.kind).singleton ? stored.factory : id;
  };
  // The owner calls ride in the holders' balances aggregate3: one eth_call fewer.
  const [contract, { alongside, ...sale }] = await Promise.all([
    readProxy(chain, token, head, multicall),
    recentSwaps(ctx.db, token).then((swaps) =>
      checkSellability({ chain, token, block: head, multicall, swaps: swaps.map((s) => ({ ...s, pool: holder(s.pool) })), pool: pool && holder(pool), alongside: ownerCalls(token) }),
    ),
  ]);
  return { ...proxyAndPowers(contract, alongside ?? []), ...sale };
}

/** The chain client, counting every request the checks make. */
function countingChain(chain: ChainClient, round: ContractCheckRound): ChainClient {
  return {
    ...chain,
    request: (method, params, options) => (round.calls++, chain.request(method, params, options)),
    batch: (calls) => ((round.calls += calls.length), chain.batch(calls)),
    call: (to, data, tag) => (round.calls++, chain.call(to, data, tag)),
  };
}
