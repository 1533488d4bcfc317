// Everything the API reads (and the indexer state a restart reads back), as plain rows, to compare two databases.
import assert from 'node:assert/strict';
import type { Database } from '../../../src/db/index.ts';

type SnapshotOptions = { withUpdatedAt?: boolean; withMarketTime?: boolean; figuresOnly?: boolean };
type Snapshot = Record<'tokens' | 'swaps' | 'pricePoints' | 'pools' | 'positions' | 'priceChanges' | 'candles', Record<string, unknown>[]>;

/** Each part's select, ordered by its key; `figuresOnly`: the token and pool rows alone. */
function snapshotQueries(options: SnapshotOptions): Partial<Record<keyof Snapshot, string>> {
  const all = !options.figuresOnly;
  return {
    tokens: `SELECT address, checksum_address, name, symbol, decimals, logo, total_supply::text, current_price::text,
            price_updated_at, last24h_variation::text, fdv::text, sells, buys, swaps, is_possible_spam, is_secure,
            created_at, created_block::text, liquidity::text, volume24h::text, price_source,
            price_change_1h::text, price_change_6h::text, price_change_7d::text
            ${options.withUpdatedAt ? ', updated_at' : ''}${options.withMarketTime ? ', market_updated_at' : ''}
     FROM tokens ORDER BY address`,
    swaps: all
      ? `SELECT block_number::text, log_index, token, side, tx_hash, pool, occurred_at, amount::text, value_usd::text
     FROM swaps ORDER BY block_number, log_index, token`
      : undefined,
    pools: `SELECT address, checksum_address, dex, family, fee, stable, token0, token0_checksum, token0_symbol, token1, token1_checksum,
            token1_symbol, liquidity::text, price::text, volume24h::text, swaps24h, created_block::text
     FROM pools ORDER BY address`,
    // Concentrated positions and the price changes with their sources: what a restart reads back.
    positions: all
      ? `SELECT pool, block_number::text, log_index, tick_lower, tick_upper, liquidity::text FROM indexer_pool_positions ORDER BY pool, block_number, log_index`
      : undefined,
    priceChanges: all ? `SELECT token, block_number::text, price::text, observed_at, source FROM indexer_price_changes ORDER BY token, block_number` : undefined,
    pricePoints: all ? `SELECT token, hour, price::text, observed_at, block_number::text FROM price_points ORDER BY token, hour` : undefined,
    candles: all
      ? `SELECT token, interval_s, bucket, open::text, high::text, low::text, close::text, volume_usd::text, volume::text, swaps, last_block::text
     FROM candles ORDER BY token, interval_s, bucket`
      : undefined,
  };
}

export async function snapshotDb(db: Database, options: SnapshotOptions = {}): Promise<Snapshot> {
  const queries = snapshotQueries(options);
  const read = async (part: keyof Snapshot) => (queries[part] ? await db.query<Record<string, unknown>>(queries[part]) : []);
  const tokens = await read('tokens');
  const swaps = await read('swaps');
  const pools = await read('pools');
  const positions = await read('positions');
  const priceChanges = await read('priceChanges');
  const pricePoints = await read('pricePoints');
  const candles = await read('candles');
  return { tokens, swaps, pricePoints, pools, positions, priceChanges, candles };
}

/** A digest of each part of the snapshot, computed by the database (no rows cross to JavaScript). */
async function snapshotDigests(db: Database, options: SnapshotOptions): Promise<string[]> {
  const digests: string[] = [];
  for (const [part, sql] of Object.entries(snapshotQueries(options))) {
    if (!sql) continue;
    const [row] = await db.query<{ digest: string }>(
      `SELECT count(*) || ':' || md5(COALESCE(string_agg(r::text, E'\\n' ORDER BY n), '')) AS digest
       FROM (SELECT q AS r, row_number() OVER () AS n FROM (${sql}) q) s`,
    );
    digests.push(`${part} ${row!.digest}`);
  }
  return digests;
}

/**
 * Asserts that `actual` stores what `expected` does, as snapshotDb reads them (deepEqual of its
 * rows): equal digests computed in each database mean equal rows (the same text of every value);
 * when they differ, the rows decide and show the difference.
 */
export async function assertSameSnapshot(actual: Database, expected: Database, message: string, options: SnapshotOptions = {}): Promise<void> {
  const [a, b] = await Promise.all([snapshotDigests(actual, options), snapshotDigests(expected, options)]);
  if (a.join('\n') === b.join('\n')) return;
  assert.deepEqual(await snapshotDb(actual, options), await snapshotDb(expected, options), message);
}
