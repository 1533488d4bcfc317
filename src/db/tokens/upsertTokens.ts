import { getAddress } from 'ethers';
import type { Queryable } from '../Database.ts';
import { NEXT_ROW_VERSION, bumpDataVersion } from '../bumpDataVersion.ts';
import { updateTokenTrust } from './tokenTrust.ts';

export type TokenWrite = {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  logo?: string | null;
  totalSupply: bigint;
  /** USD per whole token as an exact decimal string, or null when unpriced. */
  currentPrice?: string | null;
  /** The time of the block in which currentPrice took its value. */
  priceUpdatedAt?: Date | null;
  /** The latest event of the token's own market (its price-source pool, or the feed's update time). */
  marketUpdatedAt?: Date | null;
  /** Percent, exact decimal string. */
  last24hVariation?: string | null;
  fdv?: string | null;
  isPossibleSpam?: boolean;
  /** JSON array of `{code, detail}` (spec: Token.spamReasons). */
  spamReasons?: string;
  /**
   * Trust columns, for writers that have them at hand (fixtures, the bench catalogue); the indexer
   * writes them with updateTokenTrust once the 24 h counts are known. Absent: left as stored.
   */
  isSecure?: boolean;
  security?: { score: number; reasons: string };
  /** USD over the token's priced pools, exact decimal string; null when none is priced. */
  liquidity?: string | null;
  /** Lower-case address of the pool the price comes from, or of the anchor (feed or pegged token). */
  priceSource?: string | null;
  priceSourceKind?: 'pool' | 'usd-feed' | 'usd-basket' | null;
  /** When the token was first seen; an existing earlier value is kept. */
  firstSeenAt: Date;
  /** Stamped as updatedAt when any stored field changes. */
  at: Date;
  /** Block that first brought the token in (reorg rollback). */
  firstSeenBlock?: number;
  /** Base units; null (or absent) while unknown. */
  circulatingSupply?: bigint | null;
  /** USD, exact decimal string; null without a price or a circulating supply. */
  marketCap?: string | null;
  /** Percent change over the last 1 h, 6 h and 7 d, exact decimal strings (24 h: last24hVariation). */
  priceChange1h?: string | null;
  priceChange6h?: string | null;
  priceChange7d?: string | null;
};

const BATCH = 500;

// Every token row is offered again after each history range and batch that reprices: checksum each address once.
const checksums = new Map<string, string>();
const checksum = (lower: string): string => {
  let value = checksums.get(lower);
  if (value === undefined) checksums.set(lower, (value = getAddress(lower)));
  return value;
};

// Whether an upsert changes anything a reader sees (counts are written by refreshSwapCounts).
const CHANGED = `(t.name, t.symbol, t.decimals, t.logo, t.total_supply, t.current_price, t.price_updated_at,
    t.last24h_variation, t.fdv, t.is_possible_spam, t.spam_reasons, t.liquidity, t.price_source, t.price_source_kind,
    t.price_change_1h, t.price_change_6h, t.price_change_7d, t.market_updated_at)
  IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.symbol, EXCLUDED.decimals, EXCLUDED.logo, EXCLUDED.total_supply,
    EXCLUDED.current_price, EXCLUDED.price_updated_at, EXCLUDED.last24h_variation, EXCLUDED.fdv,
    EXCLUDED.is_possible_spam, EXCLUDED.spam_reasons, EXCLUDED.liquidity, EXCLUDED.price_source, EXCLUDED.price_source_kind,
    EXCLUDED.price_change_1h, EXCLUDED.price_change_6h, EXCLUDED.price_change_7d, EXCLUDED.market_updated_at)
  OR (t.circulating_supply, t.market_cap) IS DISTINCT FROM (EXCLUDED.circulating_supply, EXCLUDED.market_cap)`;

/**
 * Inserts or updates tokens in batches of one statement each. `updated_at` moves only for rows
 * whose stored fields really change, `created_at` keeps the earliest sighting; a row whose stored
 * fields would all stay the same is left untouched.
 */
export async function upsertTokens(db: Queryable, tokens: readonly TokenWrite[]): Promise<void> {
  // Every batch is sent before the first answer is awaited: the connection runs them back to back.
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < tokens.length; i += BATCH) {
    const batch = tokens.slice(i, i + BATCH);
    const col = <T>(f: (t: TokenWrite) => T) => batch.map(f);
    sent.push(db.query(
      `INSERT INTO tokens AS t (address, checksum_address, name, symbol, decimals, logo, total_supply,
         current_price, price_updated_at, last24h_variation, fdv, is_possible_spam, spam_reasons,
         created_at, updated_at, created_block, liquidity, price_source, price_source_kind, circulating_supply, market_cap,
         price_change_1h, price_change_6h, price_change_7d, market_updated_at, row_version)
       SELECT *, ${NEXT_ROW_VERSION} FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[],
         $7::numeric[], $8::numeric[], $9::timestamptz[], $10::numeric[], $11::numeric[],
         $12::boolean[], $13::jsonb[], $14::timestamptz[], $15::timestamptz[], $16::bigint[], $17::numeric[], $18::text[], $19::text[],
         $20::numeric[], $21::numeric[], $22::numeric[], $23::numeric[], $24::numeric[], $25::timestamptz[])
       ON CONFLICT (address) DO UPDATE SET
         checksum_address = EXCLUDED.checksum_address, name = EXCLUDED.name, symbol = EXCLUDED.symbol,
         decimals = EXCLUDED.decimals, logo = EXCLUDED.logo, total_supply = EXCLUDED.total_supply,
         current_price = EXCLUDED.current_price, price_updated_at = EXCLUDED.price_updated_at,
         last24h_variation = EXCLUDED.last24h_variation, fdv = EXCLUDED.fdv,
         is_possible_spam = EXCLUDED.is_possible_spam, spam_reasons = EXCLUDED.spam_reasons,
         liquidity = EXCLUDED.liquidity, price_source = EXCLUDED.price_source, price_source_kind = EXCLUDED.price_source_kind,
         circulating_supply = EXCLUDED.circulating_supply, market_cap = EXCLUDED.market_cap,
         price_change_1h = EXCLUDED.price_change_1h, price_change_6h = EXCLUDED.price_change_6h,
         price_change_7d = EXCLUDED.price_change_7d, market_updated_at = EXCLUDED.market_updated_at,
         created_at = LEAST(t.created_at, EXCLUDED.created_at),
         created_block = LEAST(t.created_block, EXCLUDED.created_block),
         updated_at = CASE WHEN ${CHANGED} THEN GREATEST(t.updated_at, EXCLUDED.updated_at) ELSE t.updated_at END,
         row_version = CASE WHEN ${CHANGED} OR EXCLUDED.created_at < t.created_at THEN EXCLUDED.row_version ELSE t.row_version END
       -- A row nothing changes in is not rewritten (each history range offers all of them again).
       WHERE ${CHANGED} OR EXCLUDED.created_at < t.created_at OR EXCLUDED.created_block < t.created_block
         OR t.checksum_address IS DISTINCT FROM EXCLUDED.checksum_address`,
      [
        col((t) => t.address.toLowerCase()),
        col((t) => checksum(t.address.toLowerCase())),
        col((t) => t.name),
        col((t) => t.symbol),
        col((t) => t.decimals),
        col((t) => t.logo ?? null),
        col((t) => t.totalSupply.toString()),
        col((t) => t.currentPrice ?? null),
        col((t) => t.priceUpdatedAt?.toISOString() ?? null),
        col((t) => t.last24hVariation ?? null),
        col((t) => t.fdv ?? null),
        col((t) => t.isPossibleSpam ?? false),
        col((t) => t.spamReasons ?? '[]'),
        col((t) => t.firstSeenAt.toISOString()),
        col((t) => t.at.toISOString()),
        col((t) => t.firstSeenBlock ?? 0),
        col((t) => t.liquidity ?? null),
        col((t) => t.priceSource?.toLowerCase() ?? null),
        col((t) => t.priceSourceKind ?? (t.priceSource ? 'pool' : null)),
        col((t) => t.circulatingSupply?.toString() ?? null),
        col((t) => t.marketCap ?? null),
        col((t) => t.priceChange1h ?? null),
        col((t) => t.priceChange6h ?? null),
        col((t) => t.priceChange7d ?? null),
        col((t) => t.marketUpdatedAt?.toISOString() ?? null),
      ],
    ));
  }
  await Promise.all(sent);
  if (tokens.length > 0) await bumpDataVersion(db);
  const trusted = tokens.filter((t) => t.isSecure !== undefined || t.security !== undefined);
  for (let i = 0; i < trusted.length; i += BATCH) {
    await updateTokenTrust(db, trusted.slice(i, i + BATCH).map((t) => ({
      address: t.address.toLowerCase(), score: t.security?.score ?? 0, reasons: t.security?.reasons ?? '[]', isSecure: t.isSecure ?? false, at: t.at,
    })), new Date(0));
  }
}
