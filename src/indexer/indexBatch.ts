// One batch [from, to]: read logs, discover pools and tokens, replay pool events block by block,
// reprice what moved, and write all of it with the checkpoint in one transaction.
import { id } from 'ethers';
import { callMany, readErc20Metadata, readTotalSupplies, type BlockHeader, type RawLog } from '../chain/index.ts';
import { appendPricePoints, prunePricePoints, recordSwaps, refreshSwapCounts, upsertTokens, type SwapWrite } from '../db/index.ts';
import {
  loadPricesAt, prunePoolStates, saveBlocks, saveIndexerTokens, savePoolStates, savePools, savePriceChanges, writeCheckpoint,
  type IndexerToken, type PoolStateWrite, type PriceChange, type StoredPool,
} from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { addPool, type IndexerState } from './IndexerState.ts';
import { buildTokenWrites } from './buildTokenWrites.ts';
import { ReorgDetectedError } from './errors.ts';
import { ALL_TOPICS, TOPICS, decodePairCreated, decodePoolCreated, decodeV2Swap, decodeV2Sync, decodeV3Initialize, decodeV3Swap } from './events.ts';
import { fetchHeaders } from './fetchHeaders.ts';
import { formatFixed } from './fixed.ts';
import { priceToken } from './priceToken.ts';
import { tokenFromChain } from './tokenFromChain.ts';

export type BatchResult = {
  fromBlock: number;
  toBlock: number;
  toHash: string;
  toTime: Date;
  logs: number;
  /** Swap events indexed. */
  swapEvents: number;
  /** Stored swap rows (one per token of the pool). */
  swaps: number;
  newPools: number;
  newTokens: number;
  priceChanges: number;
};

const DAY_MS = 86_400_000;
const PRUNE_EVERY = 1000;
const SLOT0 = id('slot0()').slice(0, 10);
const LIQUIDITY = id('liquidity()').slice(0, 10);

export async function indexBatch(
  ctx: IndexerContext,
  state: IndexerState,
  from: number,
  to: number,
  parentHash: string | null,
): Promise<BatchResult> {
  const { chain, config, db } = ctx;
  const logs = (await chain.getLogs({ fromBlock: from, toBlock: to, topics: [ALL_TOPICS] }))
    .filter((l) => !l.removed)
    .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);

  // 1. Discovery: pools of the configured factories, their tokens, and token-list entries.
  const newPools: StoredPool[] = [];
  const tokenFirstSeen = new Map<string, number>();
  const knownPool = (address: string) => state.pools.has(address) || newPools.some((p) => p.address === address);
  for (const log of logs) {
    const topic = log.topics[0];
    let found: { token0: string; token1: string; pool: string; fee?: number } | null = null;
    if (topic === TOPICS.pairCreated && ctx.v2Factories.has(log.address)) found = decodePairCreated(log);
    else if (topic === TOPICS.poolCreated && ctx.v3Factories.has(log.address)) found = decodePoolCreated(log);
    if (!found || knownPool(found.pool)) continue;
    newPools.push({
      address: found.pool, kind: topic === TOPICS.pairCreated ? 'v2' : 'v3', factory: log.address,
      token0: found.token0, token1: found.token1, fee: found.fee ?? null, createdBlock: log.blockNumber,
      state: { reserve0: null, reserve1: null, sqrtPriceX96: null, liquidity: null },
    });
    for (const t of [found.token0, found.token1]) {
      if (!state.tokens.has(t) && !tokenFirstSeen.has(t)) tokenFirstSeen.set(t, log.blockNumber);
    }
  }
  for (const address of ctx.tokenList.keys()) {
    if (!state.tokens.has(address) && !tokenFirstSeen.has(address)) tokenFirstSeen.set(address, from);
  }
  const poolAddresses = new Set([...state.pools.keys(), ...newPools.map((p) => p.address)]);
  const factories = new Set([...ctx.v2Factories, ...ctx.v3Factories]);
  const relevant = logs.filter((l) => poolAddresses.has(l.address) || (factories.has(l.address) && isCreation(l)));

  // 2. Headers of every block that matters; the batch must continue the indexed chain.
  const blockNumbers = new Set<number>([from, to, ...relevant.map((l) => l.blockNumber), ...tokenFirstSeen.values()]);
  const headers = await fetchHeaders(chain, blockNumbers);
  const header = (n: number) => headers.get(n) as BlockHeader;
  if (parentHash !== null && header(from).parentHash !== parentHash) throw new ReorgDetectedError(from - 1);
  for (const log of relevant) if (log.blockHash !== header(log.blockNumber).hash) throw new ReorgDetectedError(log.blockNumber);
  const timeOf = (n: number) => new Date(header(n).timestamp * 1000);

  // 3. Reads at the batch end: metadata of new tokens, supplies of tokens that traded, V3 state after mints/burns.
  const newTokenAddresses = [...tokenFirstSeen.keys()];
  const metadata = await readErc20Metadata(chain, newTokenAddresses, to, config.multicall3);
  const newTokens: IndexerToken[] = newTokenAddresses.map((address, i) =>
    tokenFromChain(address, metadata[i], ctx.tokenList.get(address), {
      block: tokenFirstSeen.get(address)!, at: timeOf(tokenFirstSeen.get(address)!), supplyBlock: to,
    }),
  );
  for (const token of newTokens) state.tokens.set(token.address, token);
  for (const pool of newPools) addPool(state, pool);

  const v3Reads = new Map<string, { pool: string; block: number }>();
  for (const log of relevant) {
    const t = log.topics[0];
    if (state.pools.get(log.address)?.kind === 'v3' && (t === TOPICS.v3Mint || t === TOPICS.v3Burn || t === TOPICS.v3Initialize)) {
      v3Reads.set(`${log.blockNumber}:${log.address}`, { pool: log.address, block: log.blockNumber });
    }
  }
  const v3State = await readV3States(ctx, [...v3Reads.values()]);

  // 4. Replay block by block: pool state, swaps, and the prices they move.
  const swaps: SwapWrite[] = [];
  const poolStates: PoolStateWrite[] = [];
  const priceChanges: PriceChange[] = [];
  const traded = new Set<string>();
  const byBlock = new Map<number, RawLog[]>();
  for (const log of relevant) byBlock.set(log.blockNumber, [...(byBlock.get(log.blockNumber) ?? []), log]);
  const firstSeenByBlock = new Map<number, string[]>();
  for (const [t, b] of tokenFirstSeen) firstSeenByBlock.set(b, [...(firstSeenByBlock.get(b) ?? []), t]);
  const blocks = [...new Set([...byBlock.keys(), ...firstSeenByBlock.keys()])].sort((a, b) => a - b);

  for (const block of blocks) {
    const changedPools = new Set<string>();
    for (const log of byBlock.get(block) ?? []) {
      const pool = state.pools.get(log.address);
      if (!pool || pool.createdBlock > block) continue;
      const t = log.topics[0];
      if (t === TOPICS.v2Sync && pool.kind === 'v2') {
        const { reserve0, reserve1 } = decodeV2Sync(log);
        pool.state = { ...pool.state, reserve0, reserve1 };
        changedPools.add(pool.address);
      } else if (t === TOPICS.v2Swap && pool.kind === 'v2') {
        const { net0, net1 } = decodeV2Swap(log);
        pushSwaps(swaps, traded, log, pool, net0, net1, timeOf(block));
      } else if (t === TOPICS.v3Swap && pool.kind === 'v3') {
        const { net0, net1, sqrtPriceX96, liquidity } = decodeV3Swap(log);
        pool.state = { ...pool.state, sqrtPriceX96, liquidity };
        changedPools.add(pool.address);
        pushSwaps(swaps, traded, log, pool, net0, net1, timeOf(block));
      } else if (t === TOPICS.v3Initialize && pool.kind === 'v3') {
        pool.state = { ...pool.state, sqrtPriceX96: decodeV3Initialize(log).sqrtPriceX96, liquidity: pool.state.liquidity ?? 0n };
        changedPools.add(pool.address);
      }
      const read = v3State.get(`${block}:${log.address}`);
      if (read) {
        pool.state = { ...pool.state, ...read };
        changedPools.add(pool.address);
      }
    }
    for (const address of changedPools) {
      const pool = state.pools.get(address)!;
      poolStates.push({ pool: address, blockNumber: block, ...pool.state });
    }
    const dirty = new Set<string>(firstSeenByBlock.get(block) ?? []);
    for (const address of changedPools) {
      const pool = state.pools.get(address)!;
      dirty.add(pool.token0).add(pool.token1);
    }
    repriceBlock(ctx, state, dirty, block, timeOf(block), priceChanges);
  }

  // 5. Supplies: tokens that traded, and all of them when the range crosses a refresh boundary.
  const refreshAll = Math.floor((from - 1) / config.supplyRefreshBlocks) !== Math.floor(to / config.supplyRefreshBlocks);
  const fresh = new Set(newTokenAddresses);
  const supplyTargets = [...(refreshAll ? state.tokens.keys() : traded)].filter((t) => !fresh.has(t));
  const supplies = await readTotalSupplies(chain, supplyTargets, to, config.multicall3);
  const changedTokens: IndexerToken[] = [...newTokens];
  supplyTargets.forEach((address, i) => {
    const token = state.tokens.get(address)!;
    const supply = supplies[i] ?? null;
    if (supply !== null && supply !== token.totalSupply) {
      token.totalSupply = supply;
      token.supplyBlock = to;
      changedTokens.push(token);
    }
  });

  // 6. One transaction: the batch's data and the checkpoint land together or not at all.
  const toTime = timeOf(to);
  const affected = new Set<string>([...changedTokens.map((t) => t.address), ...traded, ...priceChanges.map((c) => c.token)]);
  for (const [token, p] of state.prices) if (p.price !== null) affected.add(token);
  await db.transaction(async (tx) => {
    await ctx.fence(tx, parentHash === null ? null : from - 1);
    await saveIndexerTokens(tx, changedTokens);
    await savePools(tx, newPools);
    await savePoolStates(tx, poolStates);
    await savePriceChanges(tx, priceChanges);
    const tokens = [...affected].sort();
    const pricesDayAgo = await loadPricesAt(tx, new Date(toTime.getTime() - DAY_MS), tokens);
    await upsertTokens(tx, buildTokenWrites(state, tokens, { pricesDayAgo, at: toTime, secureFdvMinUsd: ctx.secureFdvMinUsd }));
    await appendPricePoints(
      tx,
      priceChanges.filter((c) => c.price !== null).map((c) => ({ token: c.token, price: c.price!, observedAt: c.observedAt, blockNumber: c.blockNumber })),
    );
    await recordSwaps(tx, swaps);
    await refreshSwapCounts(tx, toTime);
    const stored = [...headers.values()].map((h) => ({ number: h.number, hash: h.hash, time: new Date(h.timestamp * 1000) }));
    await saveBlocks(tx, stored, config.reorgDepth);
    // Pool-state history below the oldest stored hash can never be rolled back to: keep only the latest row.
    if (Math.floor((from - 1) / PRUNE_EVERY) !== Math.floor(to / PRUNE_EVERY)) {
      const oldest = await tx.query<{ n: string | null }>(`SELECT min(block_number)::text AS n FROM indexer_blocks`);
      if (oldest[0]?.n) await prunePoolStates(tx, Number(oldest[0].n));
      // Hourly prices 48 h behind the batch's hour, but each token's carried one (no reload needed);
      // here, not per batch, as it reads every old row.
      await prunePricePoints(tx, { newest: toTime });
    }
    await writeCheckpoint(tx, { chainId: ctx.chainId, blockNumber: to, blockHash: header(to).hash, blockTime: toTime });
  });

  return {
    fromBlock: from, toBlock: to, toHash: header(to).hash, toTime, logs: relevant.length, swapEvents: new Set(swaps.map((s) => `${s.blockNumber}:${s.logIndex}`)).size, swaps: swaps.length,
    newPools: newPools.length, newTokens: newTokens.length, priceChanges: priceChanges.length,
  };
}

function isCreation(log: RawLog): boolean {
  return log.topics[0] === TOPICS.pairCreated || log.topics[0] === TOPICS.poolCreated;
}

// Taking a token out of the pool is a buy of it, putting it in a sell; one row per token.
function pushSwaps(out: SwapWrite[], traded: Set<string>, log: RawLog, pool: StoredPool, net0: bigint, net1: bigint, at: Date) {
  for (const [token, net] of [[pool.token0, net0], [pool.token1, net1]] as const) {
    traded.add(token);
    if (net === 0n) continue;
    out.push({
      blockNumber: log.blockNumber, logIndex: log.logIndex, token, side: net > 0n ? 'sell' : 'buy',
      txHash: log.transactionHash, pool: pool.address, occurredAt: at,
    });
  }
}

// Wrapped native first: when its price moves, every token quoted against it moves too.
function repriceBlock(ctx: IndexerContext, state: IndexerState, dirty: Set<string>, block: number, at: Date, out: PriceChange[]) {
  const weth = ctx.pricing.wrappedNative;
  const order = [...dirty].sort();
  if (weth && dirty.has(weth)) {
    if (setPrice(ctx, state, weth, block, at, out)) {
      for (const address of state.poolsByToken.get(weth) ?? []) {
        const pool = state.pools.get(address)!;
        for (const t of [pool.token0, pool.token1]) if (!dirty.has(t)) order.push(t);
      }
    }
  }
  const seen = new Set<string>(weth ? [weth] : []);
  for (const token of order.sort()) {
    if (seen.has(token)) continue;
    seen.add(token);
    setPrice(ctx, state, token, block, at, out);
  }
}

function setPrice(ctx: IndexerContext, state: IndexerState, token: string, block: number, at: Date, out: PriceChange[]): boolean {
  const price = priceToken(state, token, ctx.pricing);
  const previous = state.prices.get(token)?.price ?? null;
  if (price === previous) return false;
  state.prices.set(token, { price, blockNumber: block, observedAt: at });
  out.push({ token, blockNumber: block, price: price === null ? null : formatFixed(price), observedAt: at });
  return true;
}

async function readV3States(ctx: IndexerContext, reads: { pool: string; block: number }[]) {
  const result = new Map<string, { sqrtPriceX96: bigint; liquidity: bigint }>();
  const byBlock = new Map<number, string[]>();
  for (const r of reads) byBlock.set(r.block, [...(byBlock.get(r.block) ?? []), r.pool]);
  for (const [block, pools] of byBlock) {
    const calls = pools.flatMap((to) => [{ to, data: SLOT0 }, { to, data: LIQUIDITY }]);
    const answers = await callMany(ctx.chain, calls, block, ctx.config.multicall3);
    pools.forEach((pool, i) => {
      const slot0 = answers[i * 2];
      const liquidity = answers[i * 2 + 1];
      if (slot0?.ok && liquidity?.ok && slot0.data.length >= 66 && liquidity.data.length >= 66) {
        result.set(`${block}:${pool}`, { sqrtPriceX96: BigInt(slot0.data.slice(0, 66)), liquidity: BigInt(liquidity.data.slice(0, 66)) });
      }
    });
  }
  return result;
}
