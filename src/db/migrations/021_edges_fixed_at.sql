-- The moving window edges read 5 minutes ahead (indexer/exactEdgeTimes.ts): every row stored up to
-- 5 minutes after an edge holds its block's own time, and each forward step fixes only the slice
-- the edges moved by since the stored head. An index written under the rule before this migration
-- fixed whole buckets, up to the end of the bucket each edge was in: as if its head had been the
-- start of the checkpoint's bucket (the windows are whole multiples of 300 s), less a millisecond
-- (a row stored at the next bucket's first instant was not fixed). Its next forward step starts its
-- slices there and clears this column; null otherwise.
ALTER TABLE indexer_checkpoint ADD COLUMN edges_fixed_at timestamptz;
UPDATE indexer_checkpoint
SET edges_fixed_at = to_timestamp(floor(extract(epoch FROM block_time) / 300) * 300) - interval '1 millisecond'
WHERE bootstrap_time IS NOT NULL;
