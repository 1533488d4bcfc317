// What the head-first bootstrap and the history fill read by call: every pool's whole state at one
// block (each family's readState, through Multicall3), and every concentrated position from the
// pools' own events (they cannot be read by call).
import { callMany, type RawLog } from '../chain/index.ts';
import type { PoolState, PositionChange, StoredPool } from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { familyOf } from './families/index.ts';

/** Each pool's state at `block` (null: it holds nothing yet, as before its first event). */
export async function readPoolStatesAt(ctx: IndexerContext, pools: readonly StoredPool[], block: number): Promise<Map<string, PoolState | null>> {
  const plans = pools.map((pool) => ({ pool, calls: familyOf(pool.kind).readState.calls(pool) }));
  const answers = await callMany(ctx.chain, plans.flatMap((p) => p.calls), block, ctx.config.multicall3);
  const out = new Map<string, PoolState | null>();
  let i = 0;
  for (const { pool, calls } of plans) {
    const mine = calls.map(() => answers[i++]).map((a) => (a?.ok ? a.data : null));
    out.set(pool.address, familyOf(pool.kind).readState.decode(pool, mine));
  }
  return out;
}

/** Above this many emitters a topic filter is cheaper than an address list (providers cap address lists). */
const MAX_ADDRESSES = 1000;

/**
 * Every position change of the concentrated pools in blocks from..to, from their events: by the
 * pools' (and singleton managers') addresses when few enough, else by topic filtered to these pools.
 */
export async function readPositionChanges(ctx: IndexerContext, pools: ReadonlyMap<string, StoredPool>, from: number, to: number): Promise<PositionChange[]> {
  const topics = new Set<string>();
  const emitters = new Set<string>();
  for (const pool of pools.values()) {
    const family = familyOf(pool.kind);
    if (!family.positionTopics) continue;
    for (const t of family.positionTopics) topics.add(t);
    emitters.add(family.singleton ? pool.factory : pool.address);
  }
  if (topics.size === 0 || from > to) return [];
  const address = emitters.size <= MAX_ADDRESSES ? [...emitters] : undefined;
  const logs = (await ctx.chain.getLogs({ fromBlock: from, toBlock: to, address, topics: [[...topics]] }))
    .filter((l) => !l.removed)
    .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  return positionsOf(ctx, pools, logs);
}

function positionsOf(ctx: IndexerContext, pools: ReadonlyMap<string, StoredPool>, logs: readonly RawLog[]): PositionChange[] {
  const out: PositionChange[] = [];
  for (const log of logs) {
    const pool = pools.get(ctx.poolOf(log));
    if (!pool || pool.createdBlock > log.blockNumber || !familyOf(pool.kind).positionTopics?.includes(log.topics[0] ?? '')) continue;
    const position = familyOf(pool.kind).applyLog(pool, log)?.position;
    if (position) out.push({ pool: pool.address, blockNumber: log.blockNumber, logIndex: log.logIndex, ...position });
  }
  return out;
}
