// The trust columns of tokens (migration 010): the security score with its reasons and isSecure.
// The indexer computes them after the 24 h swap counts are refreshed, and writes only changes.
import type { Queryable } from '../Database.ts';
import { NEXT_ROW_VERSION, bumpDataVersion } from '../bumpDataVersion.ts';

export type TokenTrustWrite = {
  address: string;
  score: number;
  /** JSON array of `{code, impact, detail}`. */
  reasons: string;
  isSecure: boolean;
  /** updatedAt when the row changes; default: the call's `at`. */
  at?: Date;
};

/** A token's trust columns as one comparable string (what the indexer keeps to skip unchanged writes). */
export const trustKey = (t: Pick<TokenTrustWrite, 'score' | 'reasons' | 'isSecure'>): string => `${t.score}|${t.isSecure}|${t.reasons}`;

/** Every token's 24 h swap count and its stored trust key. */
export async function loadTokenTrust(db: Queryable): Promise<{ address: string; swaps: number; trust: string }[]> {
  const rows = await db.query<{ address: string; swaps: number; score: number; reasons: string; isSecure: boolean }>(
    `SELECT address, swaps, security_score AS score, security_reasons::text AS reasons, is_secure AS "isSecure" FROM tokens`,
  );
  return rows.map((r) => ({ address: r.address, swaps: Number(r.swaps), trust: trustKey({ score: r.score, reasons: normalise(r.reasons), isSecure: r.isSecure }) }));
}

// jsonb prints its own spacing: parse and re-serialise so keys compare with what the indexer builds.
const normalise = (json: string) => JSON.stringify(JSON.parse(json));

/** Writes the trust columns; `at` becomes updatedAt of the rows that change. */
export async function updateTokenTrust(db: Queryable, writes: readonly TokenTrustWrite[], at: Date): Promise<void> {
  if (writes.length === 0) return;
  await db.query(
    `UPDATE tokens t SET security_score = w.score, security_reasons = w.reasons::jsonb, is_secure = w.secure,
       updated_at = GREATEST(t.updated_at, w.at), row_version = ${NEXT_ROW_VERSION}
     FROM unnest($1::text[], $2::int[], $3::text[], $4::boolean[], $5::timestamptz[]) AS w(address, score, reasons, secure, at)
     WHERE t.address = w.address
       AND (t.security_score, t.security_reasons, t.is_secure) IS DISTINCT FROM (w.score, w.reasons::jsonb, w.secure)`,
    [
      writes.map((w) => w.address), writes.map((w) => w.score), writes.map((w) => w.reasons), writes.map((w) => w.isSecure),
      writes.map((w) => (w.at ?? at).toISOString()),
    ],
  );
  await bumpDataVersion(db);
}
