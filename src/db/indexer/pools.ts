// Pools found through the configured factories and their state after each block that changed it.
import type { Queryable } from '../Database.ts';

export type PoolKind = 'v2' | 'v3';

export type PoolState = {
  reserve0: bigint | null;
  reserve1: bigint | null;
  sqrtPriceX96: bigint | null;
  liquidity: bigint | null;
};

export type StoredPool = {
  address: string;
  kind: PoolKind;
  factory: string;
  token0: string;
  token1: string;
  fee: number | null;
  createdBlock: number;
  state: PoolState;
};

const big = (v: string | null) => (v === null ? null : BigInt(v));

/** Every pool with its latest stored state. */
export async function loadPools(db: Queryable): Promise<StoredPool[]> {
  const rows = await db.query<{
    address: string; kind: PoolKind; factory: string; token0: string; token1: string; fee: number | null;
    createdBlock: string; reserve0: string | null; reserve1: string | null; sqrtPriceX96: string | null; liquidity: string | null;
  }>(
    `SELECT p.address, p.kind, p.factory, p.token0, p.token1, p.fee, p.created_block::text AS "createdBlock",
            s.reserve0::text AS reserve0, s.reserve1::text AS reserve1,
            s.sqrt_price_x96::text AS "sqrtPriceX96", s.liquidity::text AS liquidity
     FROM indexer_pools p
     LEFT JOIN LATERAL (SELECT * FROM indexer_pool_states s WHERE s.pool = p.address
                        ORDER BY s.block_number DESC LIMIT 1) s ON true
     ORDER BY p.address`,
  );
  return rows.map((r) => ({
    address: r.address, kind: r.kind, factory: r.factory, token0: r.token0, token1: r.token1, fee: r.fee,
    createdBlock: Number(r.createdBlock),
    state: { reserve0: big(r.reserve0), reserve1: big(r.reserve1), sqrtPriceX96: big(r.sqrtPriceX96), liquidity: big(r.liquidity) },
  }));
}

export async function savePools(db: Queryable, pools: readonly StoredPool[]): Promise<void> {
  if (pools.length === 0) return;
  await db.query(
    `INSERT INTO indexer_pools (address, kind, factory, token0, token1, fee, created_block)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[])
     ON CONFLICT (address) DO NOTHING`,
    [
      pools.map((p) => p.address), pools.map((p) => p.kind), pools.map((p) => p.factory), pools.map((p) => p.token0),
      pools.map((p) => p.token1), pools.map((p) => p.fee), pools.map((p) => p.createdBlock),
    ],
  );
}

export type PoolStateWrite = PoolState & { pool: string; blockNumber: number };

export async function savePoolStates(db: Queryable, states: readonly PoolStateWrite[]): Promise<void> {
  if (states.length === 0) return;
  const s = (v: bigint | null) => (v === null ? null : v.toString());
  await db.query(
    `INSERT INTO indexer_pool_states (pool, block_number, reserve0, reserve1, sqrt_price_x96, liquidity)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[])
     ON CONFLICT (pool, block_number) DO UPDATE SET reserve0 = EXCLUDED.reserve0, reserve1 = EXCLUDED.reserve1,
       sqrt_price_x96 = EXCLUDED.sqrt_price_x96, liquidity = EXCLUDED.liquidity`,
    [
      states.map((x) => x.pool), states.map((x) => x.blockNumber), states.map((x) => s(x.reserve0)),
      states.map((x) => s(x.reserve1)), states.map((x) => s(x.sqrtPriceX96)), states.map((x) => s(x.liquidity)),
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
