import { getAddress } from 'ethers';
import type { Queryable } from '../Database.ts';
import { NEXT_ROW_VERSION, bumpDataVersion } from '../bumpDataVersion.ts';

export type PoolWrite = {
  address: string;
  /** The factory that created it. */
  dex: string;
  family: string;
  fee: number | null;
  stable: boolean | null;
  /** Uniswap V4: the hooks contract; null otherwise. */
  hooks: string | null;
  /** Why the pool never prices a token (the spec's Pool.priceSourceExclusion); null when it can. */
  priceSourceExclusion: string | null;
  /** token0 is the native currency, shown as the wrapped native token. */
  token0Native: boolean;
  token0: string;
  token0Symbol: string;
  token1: string;
  token1Symbol: string;
  /** USD, exact decimal string; null unless both tokens are priced. */
  liquidity: string | null;
  /** Whole token1 per whole token0, exact decimal string. */
  price: string | null;
  createdBlock: number;
};

const BATCH = 500;

// Pools and their tokens are written again in every batch that reprices them: checksum each once.
// A Uniswap V4 pool id (32 bytes) has no checksum: it is kept in lower case.
const checksums = new Map<string, string>();
const checksum = (address: string): string => {
  const lower = address.toLowerCase();
  let value = checksums.get(lower);
  if (value === undefined) checksums.set(lower, (value = lower.length === 66 ? lower : getAddress(lower)));
  return value;
};

/**
 * Inserts or updates the API's pool rows (24 h swaps and volume are written by refreshSwapCounts).
 * A row is stamped with the next data version only when a field a reader sees changes, and so is
 * every token whose price source it is (its JSON embeds the pool). `stampedAbove`: the data version
 * when the caller's transaction began; a token stamped above it in that transaction is left as it is.
 */
export async function upsertPools(db: Queryable, pools: readonly PoolWrite[], stampedAbove?: number): Promise<number> {
  // Every batch is sent before the first answer is awaited: the connection runs them back to back.
  const sent: Promise<{ address: string }[]>[] = [];
  for (let i = 0; i < pools.length; i += BATCH) {
    const batch = pools.slice(i, i + BATCH);
    const col = <T>(f: (p: PoolWrite) => T) => batch.map(f);
    sent.push(db.query<{ address: string }>(
      `INSERT INTO pools AS p (address, checksum_address, dex, family, fee, stable, token0, token0_checksum, token0_symbol,
         token1, token1_checksum, token1_symbol, liquidity, price, created_block, hooks, price_source_exclusion, token0_native, row_version)
       SELECT *, ${NEXT_ROW_VERSION} FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::boolean[],
         $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::numeric[], $14::numeric[], $15::bigint[],
         $16::text[], $17::text[], $18::boolean[])
       ON CONFLICT (address) DO UPDATE SET token0_symbol = EXCLUDED.token0_symbol, token1_symbol = EXCLUDED.token1_symbol,
         liquidity = EXCLUDED.liquidity, price = EXCLUDED.price, fee = EXCLUDED.fee, row_version = EXCLUDED.row_version
       WHERE (p.token0_symbol, p.token1_symbol, p.liquidity, p.price, p.fee)
         IS DISTINCT FROM (EXCLUDED.token0_symbol, EXCLUDED.token1_symbol, EXCLUDED.liquidity, EXCLUDED.price, EXCLUDED.fee)
       RETURNING p.address`,
      [
        col((p) => p.address.toLowerCase()), col((p) => checksum(p.address)), col((p) => checksum(p.dex)),
        col((p) => p.family), col((p) => p.fee), col((p) => p.stable),
        col((p) => p.token0.toLowerCase()), col((p) => checksum(p.token0)), col((p) => p.token0Symbol),
        col((p) => p.token1.toLowerCase()), col((p) => checksum(p.token1)), col((p) => p.token1Symbol),
        col((p) => p.liquidity), col((p) => p.price), col((p) => p.createdBlock),
        col((p) => (p.hooks === null ? null : checksum(p.hooks))), col((p) => p.priceSourceExclusion), col((p) => p.token0Native),
      ],
    ));
  }
  const changed = (await Promise.all(sent)).flat().map((row) => row.address);
  // One statement for every changed pool (a feed round changes ~20,000): a statement per batch
  // scanned the tokens once per 500 pools where the planner chose a scan.
  await touchTokensPricedBy(db, changed, stampedAbove);
  if (changed.length > 0) await bumpDataVersion(db);
  return changed.length;
}

/**
 * Stamps the tokens priced by these pools with the next data version: readers serialise them again.
 * With `stampedAbove` (the data version when the transaction began), a token already stamped above
 * it is skipped: no reader has seen a version above it, so the stamp it has makes it read again too.
 */
export async function touchTokensPricedBy(db: Queryable, pools: readonly string[], stampedAbove?: number): Promise<void> {
  if (pools.length === 0) return;
  await db.query(`UPDATE tokens SET row_version = ${NEXT_ROW_VERSION} WHERE price_source = ANY($1::text[]) AND ($2::bigint IS NULL OR row_version <= $2)`, [
    pools, stampedAbove ?? null,
  ]);
}
