// Pools found through the configured factories and their state after each block that changed it.
import type { Queryable } from '../Database.ts';

/** The DEX family of a pool, as src/indexer/families' registry names it (the SQL CHECK lists the same kinds). */
export type PoolKind = string;

export type PoolState = {
  reserve0: bigint | null;
  reserve1: bigint | null;
  sqrtPriceX96: bigint | null;
  liquidity: bigint | null;
  /** The tick after the last event, where the family keeps it (Uniswap V4: which positions are active). */
  tick: number | null;
  /** The LP fee of the latest swap, where it can change with every swap (Uniswap V4). */
  fee: number | null;
};

export type StoredPool = {
  address: string;
  kind: PoolKind;
  factory: string;
  token0: string;
  token1: string;
  fee: number | null;
  /** Stable-invariant pool (Solidly, SyncSwap); null for families without the choice. */
  stable: boolean | null;
  /** Uniswap V4: the pool's hooks contract (lower case); null without hooks and for other families. */
  hooks: string | null;
  /** token0 is the native currency (Uniswap V4's address(0)), kept as the wrapped native token it is priced as. */
  native0: boolean;
  createdBlock: number;
  /** Time of the creation block; null for pools stored before it was kept. */
  createdAt: Date | null;
  /** Time of the last block whose events changed the pool's state (swap, sync, mint, burn). */
  lastEventAt: Date | null;
  state: PoolState;
  /** Concentrated liquidity: liquidity added when the price crosses each tick upwards (from Mint/Burn). */
  liquidityNet: Map<number, bigint>;
};

const big = (v: string | null) => (v === null ? null : BigInt(v));

/** Every pool with its latest stored state. */
export async function loadPools(db: Queryable): Promise<StoredPool[]> {
  const rows = await db.query<{
    address: string; kind: PoolKind; factory: string; token0: string; token1: string; fee: number | null; stable: boolean | null;
    hooks: string | null; native0: boolean; createdBlock: string; createdAt: Date | null; lastEventAt: Date | null;
    reserve0: string | null; reserve1: string | null; sqrtPriceX96: string | null; liquidity: string | null; tick: number | null; stateFee: number | null;
  }>(
    `SELECT p.address, p.kind, p.factory, p.token0, p.token1, p.fee, p.stable, p.hooks, p.native0, p.created_block::text AS "createdBlock",
            p.created_at AS "createdAt", s.block_time AS "lastEventAt", s.reserve0::text AS reserve0, s.reserve1::text AS reserve1,
            s.sqrt_price_x96::text AS "sqrtPriceX96", s.liquidity::text AS liquidity, s.tick, s.fee AS "stateFee"
     FROM indexer_pools p
     LEFT JOIN LATERAL (SELECT * FROM indexer_pool_states s WHERE s.pool = p.address
                        ORDER BY s.block_number DESC LIMIT 1) s ON true
     ORDER BY p.address`,
  );
  const net = await loadLiquidityNet(db);
  return rows.map((r) => ({
    address: r.address, kind: r.kind, factory: r.factory, token0: r.token0, token1: r.token1, fee: r.fee, stable: r.stable,
    hooks: r.hooks, native0: r.native0,
    createdBlock: Number(r.createdBlock),
    createdAt: r.createdAt ? new Date(r.createdAt) : null,
    lastEventAt: r.lastEventAt ? new Date(r.lastEventAt) : null,
    state: {
      reserve0: big(r.reserve0), reserve1: big(r.reserve1), sqrtPriceX96: big(r.sqrtPriceX96), liquidity: big(r.liquidity),
      tick: r.tick === null ? null : Number(r.tick), fee: r.stateFee === null ? null : Number(r.stateFee),
    },
    liquidityNet: net.get(r.address) ?? new Map(),
  }));
}

export async function savePools(db: Queryable, pools: readonly StoredPool[]): Promise<void> {
  if (pools.length === 0) return;
  await db.query(
    `INSERT INTO indexer_pools (address, kind, factory, token0, token1, fee, created_block, stable, created_at, hooks, native0)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::boolean[], $9::timestamptz[],
       $10::text[], $11::boolean[])
     ON CONFLICT (address) DO NOTHING`,
    [
      pools.map((p) => p.address), pools.map((p) => p.kind), pools.map((p) => p.factory), pools.map((p) => p.token0),
      pools.map((p) => p.token1), pools.map((p) => p.fee), pools.map((p) => p.createdBlock), pools.map((p) => p.stable),
      pools.map((p) => p.createdAt?.toISOString() ?? null), pools.map((p) => p.hooks), pools.map((p) => p.native0),
    ],
  );
}

/** `provisional`: read by call at a head-first bootstrap block, not replayed from the pool's events (blockTime null). */
export type PoolStateWrite = PoolState & { pool: string; blockNumber: number; blockTime?: Date | null; provisional?: boolean };

export async function savePoolStates(db: Queryable, states: readonly PoolStateWrite[]): Promise<void> {
  if (states.length === 0) return;
  const s = (v: bigint | null) => (v === null ? null : v.toString());
  await db.query(
    `INSERT INTO indexer_pool_states (pool, block_number, reserve0, reserve1, sqrt_price_x96, liquidity, block_time, tick, fee, provisional)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[], $7::timestamptz[], $8::int[], $9::int[],
       $10::boolean[])
     ON CONFLICT (pool, block_number) DO UPDATE SET reserve0 = EXCLUDED.reserve0, reserve1 = EXCLUDED.reserve1,
       sqrt_price_x96 = EXCLUDED.sqrt_price_x96, liquidity = EXCLUDED.liquidity, block_time = EXCLUDED.block_time,
       tick = EXCLUDED.tick, fee = EXCLUDED.fee, provisional = EXCLUDED.provisional`,
    [
      states.map((x) => x.pool), states.map((x) => x.blockNumber), states.map((x) => s(x.reserve0)),
      states.map((x) => s(x.reserve1)), states.map((x) => s(x.sqrtPriceX96)), states.map((x) => s(x.liquidity)),
      states.map((x) => x.blockTime?.toISOString() ?? null), states.map((x) => x.tick), states.map((x) => x.fee),
      states.map((x) => x.provisional ?? false),
    ],
  );
}

/** Drops pool-state history older than `belowBlock`, keeping each pool's latest row (reorgs never reach there). */
export async function prunePoolStates(db: Queryable, belowBlock: number): Promise<void> {
  await db.query(
    `DELETE FROM indexer_pool_states s WHERE s.block_number < $1 AND EXISTS (
       SELECT 1 FROM indexer_pool_states n WHERE n.pool = s.pool AND n.block_number > s.block_number AND n.block_number <= $1)`,
    [belowBlock],
  );
}

export type PositionChange = { pool: string; blockNumber: number; logIndex: number; tickLower: number; tickUpper: number; liquidity: bigint };

export async function savePositionChanges(db: Queryable, changes: readonly PositionChange[]): Promise<void> {
  if (changes.length === 0) return;
  await db.query(
    `INSERT INTO indexer_pool_positions (pool, block_number, log_index, tick_lower, tick_upper, liquidity)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::int[], $6::numeric[])
     ON CONFLICT (pool, block_number, log_index) DO NOTHING`,
    [
      changes.map((c) => c.pool), changes.map((c) => c.blockNumber), changes.map((c) => c.logIndex),
      changes.map((c) => c.tickLower), changes.map((c) => c.tickUpper), changes.map((c) => c.liquidity.toString()),
    ],
  );
}

/** Drops the provisional (bootstrap-block) state rows of these pools: their replayed history is stored. */
export async function dropProvisionalStates(db: Queryable, pools: readonly string[]): Promise<void> {
  if (pools.length === 0) return;
  await db.query(`DELETE FROM indexer_pool_states WHERE provisional AND pool = ANY($1::text[])`, [pools]);
}

/**
 * Per pool, the liquidity added when the price crosses each tick upwards: + at a range's lower tick,
 * − at its upper; with `belowBlock`, from the positions changed before that block only.
 */
export async function loadLiquidityNet(db: Queryable, belowBlock: number | null = null): Promise<Map<string, Map<number, bigint>>> {
  const rows = await db.query<{ pool: string; tick: number; net: string }>(
    `SELECT pool, tick, sum(net)::text AS net FROM (
       SELECT pool, tick_lower AS tick, liquidity AS net FROM indexer_pool_positions WHERE $1::bigint IS NULL OR block_number < $1
       UNION ALL SELECT pool, tick_upper, -liquidity FROM indexer_pool_positions WHERE $1::bigint IS NULL OR block_number < $1) t
     GROUP BY pool, tick HAVING sum(net) <> 0`,
    [belowBlock],
  );
  const out = new Map<string, Map<number, bigint>>();
  for (const r of rows) {
    let m = out.get(r.pool);
    if (!m) out.set(r.pool, (m = new Map()));
    m.set(Number(r.tick), BigInt(r.net));
  }
  return out;
}
