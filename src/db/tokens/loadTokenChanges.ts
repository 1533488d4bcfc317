import type { Queryable } from '../Database.ts';
import { readDataState, type DataVersion } from '../bumpDataVersion.ts';
import { tokenColumns, type TokenRow } from './TokenRow.ts';

export type TokenChanges = DataVersion & {
  /** True when `rows` is every token (first load, or rows were deleted since). */
  full: boolean;
  rows: TokenRow[];
};

/**
 * What changed since a reader's last load: the rows stamped above its version, or every row
 * when it has none yet or the generation moved (rows were deleted). The version is read first,
 * so a row written while this runs is read now or next time, never missed.
 */
export async function loadTokenChanges(db: Queryable, since?: DataVersion): Promise<TokenChanges> {
  const state = await readDataState(db);
  const full = since === undefined || since.generation !== state.generation;
  if (!full && since.version === state.version) return { ...state, full, rows: [] };
  const rows = full
    ? await db.query<TokenRow>(`SELECT ${tokenColumns} FROM tokens`)
    : await db.query<TokenRow>(`SELECT ${tokenColumns} FROM tokens WHERE row_version > $1`, [since.version]);
  return { ...state, full, rows };
}
