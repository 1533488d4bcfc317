// The USD feed's answers as the indexer read them (AnswerUpdated logs, latestRoundData reads).
import type { Queryable } from '../Database.ts';

/** `answer` as the feed reports it, with `decimals` (the feed's `decimals()`). */
export type FeedAnswerWrite = { feed: string; blockNumber: number; logIndex: number; answer: bigint; decimals: number; updatedAt: Date };

export async function saveFeedAnswers(db: Queryable, answers: readonly FeedAnswerWrite[]): Promise<void> {
  if (answers.length === 0) return;
  await db.query(
    `INSERT INTO indexer_feed_answers (feed, block_number, log_index, answer, updated_at, decimals)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::numeric[], $5::timestamptz[], $6::int[])
     ON CONFLICT (feed, block_number, log_index) DO UPDATE SET answer = EXCLUDED.answer, updated_at = EXCLUDED.updated_at`,
    [
      answers.map((a) => a.feed), answers.map((a) => a.blockNumber), answers.map((a) => a.logIndex),
      answers.map((a) => a.answer.toString()), answers.map((a) => a.updatedAt.toISOString()), answers.map((a) => a.decimals),
    ],
  );
}

/** The latest answer stored, as a USD price scaled by 10^36. */
export async function loadLatestFeedAnswer(db: Queryable): Promise<{ price: bigint; blockNumber: number; updatedAt: Date } | null> {
  const rows = await db.query<{ blockNumber: string; answer: string; decimals: number; updatedAt: Date }>(
    `SELECT block_number::text AS "blockNumber", answer::text AS answer, decimals, updated_at AS "updatedAt"
     FROM indexer_feed_answers ORDER BY block_number DESC, log_index DESC LIMIT 1`,
  );
  const row = rows[0];
  return row ? { price: BigInt(row.answer) * 10n ** BigInt(36 - row.decimals), blockNumber: Number(row.blockNumber), updatedAt: new Date(row.updatedAt) } : null;
}
