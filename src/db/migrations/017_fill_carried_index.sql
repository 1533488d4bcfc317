-- A head-first history fill (issue 35) drops, after each range, the candles that hold nothing but a
-- carried price (last_block = 0) in the buckets the range has filled past. Through the index on
-- (interval_s, bucket) that delete walked every stored bucket after the history's start, so each
-- range cost more than the one before; this index holds the carried rows alone (at most one per
-- token and interval between two ranges).
CREATE INDEX candles_carried ON candles (interval_s, bucket) WHERE last_block = 0;
