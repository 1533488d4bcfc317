import type { Queryable } from '../Database.ts';

export type PriceAtRead = {
  checksumAddress: string;
  /** Price changes before this time (and block) may have been pruned (docs/retention.md); null when none were. */
  keptFrom: number | null;
  keptFromBlock: number | null;
  /** The last price change at or before the moment asked for; its price is null when the token had none then. */
  change: { price: string | null; observedAt: number; blockNumber: number } | null;
  /**
   * The chain's head as indexed (the checkpoint's block), read in the same statement when asked
   * for (undefined otherwise); null before the indexer stored a block.
   */
  head?: { blockNumber: number; time: number } | null;
};

type Row = {
  checksumAddress: string;
  keptFrom: Date | null;
  keptFromBlock: string | null;
  price: string | null;
  observedAt: Date | null;
  blockNumber: string | null;
  headBlock?: string | null;
  headTime?: Date | null;
};

/** The retention horizon row of every price change (see pruning in src/db/retention). */
export const PRICE_CHANGES_HORIZON = 'price_changes';

/**
 * A token's last price change at or before a time (chain time) or the end of a block, with its
 * address, the price changes' retention horizon and, with `withHead`, the chain's head as indexed:
 * one statement, through (token, observed_at) or the primary key. Undefined when the token is not
 * indexed. (The head's join costs about 25 µs of PGlite planning per statement: asked for only
 * when the moment may be after the head.)
 */
export async function loadPriceAt(db: Queryable, token: string, at: { time: Date } | { block: number }, withHead = true): Promise<PriceAtRead | undefined> {
  const change = 'time' in at
    ? `c.observed_at <= $2 ORDER BY c.observed_at DESC, c.block_number DESC`
    : `c.block_number <= $2 ORDER BY c.block_number DESC`;
  const rows = await db.query<Row>(
    `SELECT t.checksum_address AS "checksumAddress", h.kept_from AS "keptFrom", h.kept_from_block::text AS "keptFromBlock",
            c.price::text AS price, c.observed_at AS "observedAt", c.block_number::text AS "blockNumber"
            ${withHead ? `, k.block_number::text AS "headBlock", k.block_time AS "headTime"` : ''}
     FROM tokens t
     LEFT JOIN retention_horizons h ON h.name = '${PRICE_CHANGES_HORIZON}'
     ${withHead ? 'LEFT JOIN indexer_checkpoint k ON k.id = 1' : ''}
     LEFT JOIN LATERAL (SELECT * FROM indexer_price_changes c WHERE c.token = t.address AND ${change} LIMIT 1) c ON true
     WHERE t.address = $1`,
    [token.toLowerCase(), 'time' in at ? at.time.toISOString() : at.block],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    checksumAddress: row.checksumAddress,
    keptFrom: row.keptFrom === null ? null : new Date(row.keptFrom).getTime(),
    keptFromBlock: row.keptFromBlock === null ? null : Number(row.keptFromBlock),
    change: row.blockNumber === null ? null : { price: row.price, observedAt: new Date(row.observedAt!).getTime(), blockNumber: Number(row.blockNumber) },
    ...(withHead ? { head: row.headBlock == null ? null : { blockNumber: Number(row.headBlock), time: new Date(row.headTime!).getTime() } } : {}),
  };
}
