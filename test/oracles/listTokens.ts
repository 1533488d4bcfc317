import type { Queryable, SqlParam } from '../../src/db/index.ts';
import { orderByClause, type OrderColumn, type SortDirection } from './orderColumns.ts';
import { tokenColumns, type TokenRow } from '../../src/db/tokens/TokenRow.ts';

export type TokenFilter = {
  isSecure?: boolean;
  /** Lower-case addresses; one `= ANY` query whatever their number. */
  addresses?: readonly string[];
};

export type TokenListQuery = TokenFilter & {
  page: number;
  limit: number;
  order: OrderColumn;
  sort: SortDirection;
};

function whereClause(filter: TokenFilter): { sql: string; params: SqlParam[] } {
  const conditions: string[] = [];
  const params: SqlParam[] = [];
  if (filter.isSecure !== undefined) {
    params.push(filter.isSecure);
    conditions.push(`is_secure = $${params.length}`);
  }
  if (filter.addresses !== undefined) {
    params.push(filter.addresses);
    conditions.push(`address = ANY($${params.length}::text[])`);
  }
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** One page of tokens in a total, deterministic order, and the number of matching tokens. */
export async function listTokens(
  db: Queryable,
  query: TokenListQuery,
): Promise<{ rows: TokenRow[]; total: number }> {
  const where = whereClause(query);
  const offset = (query.page - 1) * query.limit;
  const [rows, count] = await Promise.all([
    db.query<TokenRow>(
      `SELECT ${tokenColumns} FROM tokens ${where.sql}
       ORDER BY ${orderByClause(query.order, query.sort)}
       LIMIT ${query.limit} OFFSET ${offset}`,
      where.params,
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM tokens ${where.sql}`, where.params),
  ]);
  return { rows, total: Number(count[0]?.total ?? 0) };
}
