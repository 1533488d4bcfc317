// One check step, run by the indexer after a batch commits (and when it is caught up): reads the
// picked tokens' contracts and simulated sales at the chain head, stores the findings and rescores
// every token, in one fenced transaction. It is bounded in calls (pickContractChecks) and in time
// (a token whose check has not finished in time is dropped and picked again next step); a token
// whose reads fail keeps its previous findings. Nothing here can fail a batch.
import type { ChainClient } from '../../chain/index.ts';
import { recentSwaps, saveContractChecks, type ContractCheckRow } from '../../db/index.ts';
import { indexerDefaults } from '../../config/indexerConfig.ts';
import type { IndexerContext } from '../IndexerContext.ts';
import type { IndexerState } from '../IndexerState.ts';
import { createPoolFigures } from '../poolFigures.ts';
import { sourceKindOf } from '../priceToken.ts';
import { writeTokenTrust } from '../trust/writeTokenTrust.ts';
import type { ContractFindings } from './ContractFindings.ts';
import { checkSellability } from './checkSellability.ts';
import { pickContractChecks } from './pickContractChecks.ts';
import { readProxyAndPowers } from './readProxyAndPowers.ts';

export type ContractCheckStep = { checked: number; failed: number; timedOut: number; calls: number };

export type CheckAt = {
  /** The chain head: every read is at this block. */
  head: number;
  /** The last indexed block and its chain time (the fence and the interval's clock). */
  indexedBlock: number;
  indexedTime: Date;
};

export async function checkContracts(ctx: IndexerContext, state: IndexerState, at: CheckAt): Promise<ContractCheckStep> {
  const config = ctx.config;
  const figures = createPoolFigures(state);
  const picked = pickContractChecks({
    priced: [...state.prices].filter(([, p]) => p.price !== null).map(([t]) => t),
    lastChecked: (t) => state.contractChecks.get(t)?.checkedAt,
    liquidity: (t) => figures.tokenLiquidity(t),
    now: at.indexedTime,
    intervalMs: config.contractCheckIntervalMs ?? indexerDefaults.contractCheckIntervalMs,
    maxCalls: config.contractCheckMaxCalls ?? indexerDefaults.contractCheckMaxCalls,
  });
  const step: ContractCheckStep = { checked: 0, failed: 0, timedOut: 0, calls: 0 };
  if (picked.length === 0) return step;

  const chain = countingChain(ctx.chain, step);
  const done: ContractCheckRow[] = [];
  const findingsOf = new Map<string, ContractFindings>();
  const checks = picked.map(async (token) => {
    try {
      const findings = await checkToken(ctx, chain, state, token, at.head);
      findingsOf.set(token, findings);
      done.push({ token, blockNumber: at.head, checkedAt: at.indexedTime, findings: JSON.stringify(findings) });
    } catch (error) {
      step.failed++;
      ctx.logger.warn({ err: error, token, block: at.head }, 'contract check failed; previous findings kept, checked again next step');
    }
  });
  const timeoutMs = config.contractCheckTimeoutMs ?? indexerDefaults.contractCheckTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(checks), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  // Checks still running are dropped: their tokens are picked again by the next step.
  const finished = done.splice(0);
  step.timedOut = picked.length - finished.length - step.failed;
  step.checked = finished.length;
  if (finished.length === 0) return step;

  await ctx.db.transaction(async (tx) => {
    await ctx.fence(tx, at.indexedBlock);
    await saveContractChecks(tx, finished);
    for (const row of finished) state.contractChecks.set(row.token, { checkedAt: row.checkedAt, blockNumber: row.blockNumber, findings: findingsOf.get(row.token)! });
    await writeTokenTrust(tx, ctx, state, figures, at.indexedTime);
  });
  return step;
}

async function checkToken(ctx: IndexerContext, chain: ChainClient, state: IndexerState, token: string, head: number): Promise<ContractFindings> {
  const multicall = ctx.config.multicall3;
  const source = state.prices.get(token)?.source ?? null;
  const pool = source && sourceKindOf(ctx.pricing, token, source) === 'pool' ? source : null;
  const [contract, sale] = await Promise.all([
    readProxyAndPowers(chain, token, head, multicall),
    recentSwaps(ctx.db, token).then((swaps) => checkSellability({ chain, token, block: head, multicall, swaps, pool })),
  ]);
  return { ...contract, ...sale };
}

/** The chain client, counting every request the checks make. */
function countingChain(chain: ChainClient, step: ContractCheckStep): ChainClient {
  return {
    ...chain,
    request: (method, params) => (step.calls++, chain.request(method, params)),
    call: (to, data, tag) => (step.calls++, chain.call(to, data, tag)),
  };
}
