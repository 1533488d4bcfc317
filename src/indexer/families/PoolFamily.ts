// What the indexer needs to know about one DEX family: how its factory announces a pool, which pool
// events it reads and what they mean, and its price and depth in exact math.
import type { components } from '../../../generated/openapi/types.ts';
import type { RawLog } from '../../chain/index.ts';
import type { PoolKind, PoolState, StoredPool } from '../../db/indexer/index.ts';
import type { BandDepth, Ratio } from '../math/ratio.ts';

export type CreatedPool = {
  token0: string;
  token1: string;
  /** The pool's identity: its address, or for a singleton family its id. */
  pool: string;
  fee: number | null;
  stable: boolean | null;
  /** Uniswap V4: the pool's hooks contract; absent or null otherwise. */
  hooks?: string | null;
};

/** What one pool log does: a new state, a swap's per-token amounts (into the pool > 0), a position change. */
export type PoolLogEffect = {
  state?: PoolState;
  swap?: { net0: bigint; net1: bigint };
  position?: { tickLower: number; tickUpper: number; liquidity: bigint };
};

export type { BandDepth };

/** The spec's name of a family (`Pool.family`). */
export type ApiFamily = components['schemas']['Pool']['family'];

/** A factory type: a name the configuration lists factories under, and what it fixes about their pools. */
export type FactoryType = { stable: boolean | null };

/**
 * Everything the indexer knows about one DEX family, declared in its module and nowhere else: the
 * kind its pools are stored with, its name in the API, the factory types the configuration lists
 * its factories under, how a factory announces a pool, which pool events it reads and what they
 * mean, what it reads by call, and its price and depth in exact math.
 */
export type PoolFamily = {
  kind: PoolKind;
  /** The family's name in the API (`Pool.family`). */
  api: ApiFamily;
  /**
   * The factory types of the family, as the preset's `factories` keys and INDEXER_<TYPE>_FACTORIES
   * name them; a type may fix an option of its pools (SyncSwap: classic or stable factories).
   */
  factoryTypes: Readonly<Record<string, FactoryType>>;
  /**
   * True when the family's pools are entries of one singleton contract that emits every pool's
   * events (Uniswap V4's PoolManager): the configured "factory" is that contract, and `poolOf`
   * names the pool of each of its logs.
   */
  singleton?: boolean;
  /** The pool a log of the family belongs to (default: the log's emitter). */
  poolOf?(log: RawLog): string;
  /** Why a pool can never be a price source whatever its depth (a V4 hook that changes swaps); null when it can. */
  priceSourceExclusion?(pool: StoredPool): string | null;
  /** topic0 of the factory's creation event. */
  creationTopic: string;
  decodeCreation(log: RawLog): CreatedPool;
  /** eth_call data of a view answering the stable flag, read at discovery when the creation event lacks it. */
  stableCall?: string;
  /** topic0s of the pool events this family reads (shared with other families: only a known pool's logs are decoded). */
  poolTopics: readonly string[];
  applyLog(pool: StoredPool, log: RawLog): PoolLogEffect | null;
  /** The pool events that change a concentrated position (what a head-first bootstrap reads of each pool's history). */
  positionTopics?: readonly string[];
  /** Pool events after which the √price and active liquidity are read from the chain at that block, */
  stateReadTopics?: readonly string[];
  /** by these eth_call data: [√price view, liquidity view]. */
  stateCalls?: readonly [string, string];
  /**
   * The pool's whole state read by call at one block (head-first bootstrap and history fill): the
   * eth_calls, and the state their answers give; null when the pool holds nothing yet (as before
   * its first event). Concentrated positions are not part of it: they come from the pool's events.
   */
  readState: StateRead;
  /** token1 base units per token0 base unit; null while the pool has no price. */
  spotPrice(pool: StoredPool, decimals0: number, decimals1: number): Ratio | null;
  bandDepth(pool: StoredPool, decimals0: number, decimals1: number): BandDepth | null;
  /** Base units of each token the pool really holds for its liquidity providers. */
  balances(pool: StoredPool): BandDepth | null;
};

/** An eth_call and the answers of a family's state read (null: the call failed). */
export type StateRead = {
  calls(pool: StoredPool): { to: string; data: string }[];
  decode(pool: StoredPool, answers: readonly (string | null)[]): PoolState | null;
};

export const emptyState = (): PoolState => ({ reserve0: null, reserve1: null, sqrtPriceX96: null, liquidity: null, tick: null, fee: null });
