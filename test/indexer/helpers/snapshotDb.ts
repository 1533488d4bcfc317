// Everything the API reads, as plain rows, to compare two databases.
import type { Database } from '../../../src/db/index.ts';

export async function snapshotDb(db: Database, options: { withUpdatedAt?: boolean } = {}) {
  const tokens = await db.query<Record<string, unknown>>(
    `SELECT address, checksum_address, name, symbol, decimals, logo, total_supply::text, current_price::text,
            price_updated_at, last24h_variation::text, fdv::text, sells, buys, swaps, is_possible_spam, is_secure,
            created_at, created_block::text ${options.withUpdatedAt ? ', updated_at' : ''}
     FROM tokens ORDER BY address`,
  );
  const swaps = await db.query(`SELECT block_number::text, log_index, token, side, tx_hash, pool, occurred_at FROM swaps ORDER BY block_number, log_index, token`);
  const pricePoints = await db.query(`SELECT token, hour, price::text, observed_at, block_number::text FROM price_points ORDER BY token, hour`);
  return { tokens, swaps, pricePoints };
}
