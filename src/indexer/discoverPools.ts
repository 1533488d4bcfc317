// A batch's discovery step: pools the configured factories announced in the batch (each decoded by
// its factory's family), the tokens first seen with them, and token-list entries not seen yet.
import type { RawLog } from '../chain/index.ts';
import type { StoredPool } from '../db/indexer/index.ts';
import type { IndexerContext } from './IndexerContext.ts';
import { emptyState } from './families/index.ts';
import type { IndexerState } from './state/IndexerState.ts';

const NATIVE = '0x0000000000000000000000000000000000000000';

export type Discovery = {
  newPools: StoredPool[];
  /** Each token not known before, with the block it was first seen in. */
  tokenFirstSeen: Map<string, number>;
  /** The creation logs of the batch's new pools. */
  creations: Set<RawLog>;
};

export function discoverPools(ctx: IndexerContext, state: IndexerState, logs: readonly RawLog[], from: number): Discovery {
  const newPools: StoredPool[] = [];
  const found = new Set<string>();
  const tokenFirstSeen = new Map<string, number>();
  const creations = new Set<RawLog>();
  for (const log of logs) {
    const factory = ctx.factories.get(log.address);
    if (!factory || log.topics[0] !== factory.family.creationTopic) continue;
    creations.add(log);
    const created = factory.family.decodeCreation(log);
    if (state.pools.has(created.pool) || found.has(created.pool)) continue;
    // The native currency (Uniswap V4's address(0), always currency0) is priced as the wrapped
    // native token: without one configured, such a pool can be neither priced nor listed.
    const native0 = created.token0 === NATIVE;
    if (native0 && !ctx.config.wrappedNative) continue;
    const token0 = native0 ? ctx.config.wrappedNative! : created.token0;
    found.add(created.pool);
    newPools.push({
      address: created.pool, kind: factory.family.kind, factory: log.address,
      token0, token1: created.token1, fee: created.fee, stable: factory.stable ?? created.stable, createdBlock: log.blockNumber,
      hooks: created.hooks ?? null, native0, createdAt: null, lastEventAt: null, state: emptyState(), liquidityNet: new Map(),
    });
    for (const t of [token0, created.token1]) {
      if (!state.tokens.has(t) && !tokenFirstSeen.has(t)) tokenFirstSeen.set(t, log.blockNumber);
    }
  }
  for (const address of ctx.tokenList.keys()) {
    if (!state.tokens.has(address) && !tokenFirstSeen.has(address)) tokenFirstSeen.set(address, from);
  }
  return { newPools, tokenFirstSeen, creations };
}
