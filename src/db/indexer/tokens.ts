// Token metadata as the indexer read it (plus list data), the source the API token rows are built from.
import type { Queryable } from '../Database.ts';

export type IndexerToken = {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  decimalsKnown: boolean;
  listed: boolean;
  logo: string | null;
  totalSupply: bigint;
  supplyBlock: number;
  firstSeenBlock: number;
  firstSeenAt: Date;
  /** Base units not held by burn addresses, the token itself or its excluded wallets; null until read. */
  circulatingSupply: bigint | null;
  /** Block of the token's last circulating-supply read (one that failed to answer keeps the figure); null: never read. */
  circulatingBlock: number | null;
  /** Chain time of that block. */
  circulatingReadAt: Date | null;
};

export async function loadIndexerTokens(db: Queryable): Promise<IndexerToken[]> {
  const rows = await db.query<Omit<IndexerToken, 'totalSupply' | 'supplyBlock' | 'firstSeenBlock' | 'circulatingSupply' | 'circulatingBlock'> & {
    totalSupply: string;
    supplyBlock: string;
    firstSeenBlock: string;
    circulatingSupply: string | null;
    circulatingBlock: string | null;
    circulatingReadAt: Date | string | null;
  }>(
    `SELECT address, name, symbol, decimals, decimals_known AS "decimalsKnown", listed, logo,
            total_supply::text AS "totalSupply", supply_block::text AS "supplyBlock",
            first_seen_block::text AS "firstSeenBlock", first_seen_at AS "firstSeenAt",
            circulating_supply::text AS "circulatingSupply", circulating_block::text AS "circulatingBlock",
            circulating_read_at AS "circulatingReadAt"
     FROM indexer_tokens ORDER BY address`,
  );
  return rows.map((r) => ({
    ...r,
    totalSupply: BigInt(r.totalSupply),
    supplyBlock: Number(r.supplyBlock),
    firstSeenBlock: Number(r.firstSeenBlock),
    firstSeenAt: new Date(r.firstSeenAt),
    circulatingSupply: r.circulatingSupply === null ? null : BigInt(r.circulatingSupply),
    circulatingBlock: r.circulatingBlock === null ? null : Number(r.circulatingBlock),
    circulatingReadAt: r.circulatingReadAt === null ? null : new Date(r.circulatingReadAt),
  }));
}

export async function saveIndexerTokens(db: Queryable, tokens: readonly IndexerToken[]): Promise<void> {
  if (tokens.length === 0) return;
  const col = <T>(f: (t: IndexerToken) => T) => tokens.map(f);
  await db.query(
    `INSERT INTO indexer_tokens (address, name, symbol, decimals, decimals_known, listed, logo, total_supply,
       supply_block, first_seen_block, first_seen_at, circulating_supply, circulating_block, circulating_read_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::boolean[], $6::boolean[], $7::text[],
       $8::numeric[], $9::bigint[], $10::bigint[], $11::timestamptz[], $12::numeric[], $13::bigint[], $14::timestamptz[])
     ON CONFLICT (address) DO UPDATE SET name = EXCLUDED.name, symbol = EXCLUDED.symbol, decimals = EXCLUDED.decimals,
       decimals_known = EXCLUDED.decimals_known, listed = EXCLUDED.listed, logo = EXCLUDED.logo,
       total_supply = EXCLUDED.total_supply, supply_block = EXCLUDED.supply_block,
       first_seen_block = EXCLUDED.first_seen_block, first_seen_at = EXCLUDED.first_seen_at,
       circulating_supply = EXCLUDED.circulating_supply, circulating_block = EXCLUDED.circulating_block,
       circulating_read_at = EXCLUDED.circulating_read_at`,
    [
      col((t) => t.address),
      col((t) => t.name),
      col((t) => t.symbol),
      col((t) => t.decimals),
      col((t) => t.decimalsKnown),
      col((t) => t.listed),
      col((t) => t.logo),
      col((t) => t.totalSupply.toString()),
      col((t) => t.supplyBlock),
      col((t) => t.firstSeenBlock),
      col((t) => t.firstSeenAt.toISOString()),
      col((t) => t.circulatingSupply?.toString() ?? null),
      col((t) => t.circulatingBlock),
      col((t) => t.circulatingReadAt?.toISOString() ?? null),
    ],
  );
}
