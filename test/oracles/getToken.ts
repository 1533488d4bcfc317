import type { Queryable } from '../../src/db/index.ts';
import { tokenColumns, type TokenRow } from '../../src/db/tokens/TokenRow.ts';

/** The token at `address` (any case), or undefined when it is not indexed. */
export async function getToken(db: Queryable, address: string): Promise<TokenRow | undefined> {
  const rows = await db.query<TokenRow>(`SELECT ${tokenColumns} FROM tokens WHERE address = $1`, [
    address.toLowerCase(),
  ]);
  return rows[0];
}
