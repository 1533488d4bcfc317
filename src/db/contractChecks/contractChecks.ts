// The indexer_contract_checks table (migration 013): one row per checked token, replaced by each check.
import type { Queryable } from '../Database.ts';
import { NEXT_ROW_VERSION, bumpDataVersion } from '../bumpDataVersion.ts';

export type ContractCheckRow = {
  token: string;
  blockNumber: number;
  /** Chain time of the last indexed block when the check ran (the check interval counts from it). */
  checkedAt: Date;
  /** JSON of the findings. */
  findings: string;
};

export async function loadContractChecks(db: Queryable): Promise<ContractCheckRow[]> {
  const rows = await db.query<{ token: string; block: string; checkedAt: Date | string; findings: string }>(
    `SELECT token, block_number::text AS block, checked_at AS "checkedAt", findings::text AS findings FROM indexer_contract_checks`,
  );
  return rows.map((r) => ({ token: r.token, blockNumber: Number(r.block), checkedAt: new Date(r.checkedAt), findings: r.findings }));
}

export async function saveContractChecks(db: Queryable, rows: readonly ContractCheckRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO indexer_contract_checks (token, block_number, checked_at, findings)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::jsonb[])
     ON CONFLICT (token) DO UPDATE SET block_number = EXCLUDED.block_number, checked_at = EXCLUDED.checked_at, findings = EXCLUDED.findings`,
    [rows.map((r) => r.token), rows.map((r) => r.blockNumber), rows.map((r) => r.checkedAt.toISOString()), rows.map((r) => r.findings)],
  );
  // The token's answer says its checks have run (Token.completeness.contractChecks).
  const marked = await db.query(
    `UPDATE tokens SET contract_checked = true, row_version = ${NEXT_ROW_VERSION} WHERE address = ANY($1::text[]) AND NOT contract_checked RETURNING address`,
    [rows.map((r) => r.token)],
  );
  if (marked.length > 0) await bumpDataVersion(db);
}
