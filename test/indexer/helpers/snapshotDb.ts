// Everything the API reads (and the indexer state a restart reads back), as plain rows, to compare two databases.
import type { Database } from '../../../src/db/index.ts';

/** `figuresOnly`: the token and pool rows alone (the other lists empty). */
export async function snapshotDb(db: Database, options: { withUpdatedAt?: boolean; withMarketTime?: boolean; figuresOnly?: boolean } = {}) {
  const tokens = await db.query<Record<string, unknown>>(
    `SELECT address, checksum_address, name, symbol, decimals, logo, total_supply::text, current_price::text,
            price_updated_at, last24h_variation::text, fdv::text, sells, buys, swaps, is_possible_spam, is_secure,
            created_at, created_block::text, liquidity::text, volume24h::text, price_source,
            price_change_1h::text, price_change_6h::text, price_change_7d::text
            ${options.withUpdatedAt ? ', updated_at' : ''}${options.withMarketTime ? ', market_updated_at' : ''}
     FROM tokens ORDER BY address`,
  );
  const all = !options.figuresOnly;
  const swaps = !all ? [] : await db.query(
    `SELECT block_number::text, log_index, token, side, tx_hash, pool, occurred_at, amount::text, value_usd::text
     FROM swaps ORDER BY block_number, log_index, token`,
  );
  const pools = await db.query(
    `SELECT address, checksum_address, dex, family, fee, stable, token0, token0_checksum, token0_symbol, token1, token1_checksum,
            token1_symbol, liquidity::text, price::text, volume24h::text, swaps24h, created_block::text
     FROM pools ORDER BY address`,
  );
  // Concentrated positions and the price changes with their sources: what a restart reads back.
  const positions = !all ? [] : await db.query(
    `SELECT pool, block_number::text, log_index, tick_lower, tick_upper, liquidity::text FROM indexer_pool_positions ORDER BY pool, block_number, log_index`,
  );
  const priceChanges = !all ? [] : await db.query(
    `SELECT token, block_number::text, price::text, observed_at, source FROM indexer_price_changes ORDER BY token, block_number`,
  );
  const pricePoints = !all ? [] : await db.query(`SELECT token, hour, price::text, observed_at, block_number::text FROM price_points ORDER BY token, hour`);
  const candles = !all ? [] : await db.query(
    `SELECT token, interval_s, bucket, open::text, high::text, low::text, close::text, volume_usd::text, volume::text, swaps, last_block::text
     FROM candles ORDER BY token, interval_s, bucket`,
  );
  return { tokens, swaps, pricePoints, pools, positions, priceChanges, candles };
}
