-- Bucketed history block times (docs/indexer.md "Block times of the history fill"): a history range
-- whose logs carry no blockTimestamp gives most blocks a time interpolated inside their true 5-minute
-- bucket. Each bucket (its start, a UTC multiple of 300 s) that holds such a time is listed here until
-- a window edge (1 h, 6 h, 24 h, 7 d back from the indexed head) moving with the head reaches it:
-- then its rows get their blocks' own times (exactEdgeTimes.ts) and its row is deleted, so window
-- figures never compare an interpolated second with an edge.
CREATE TABLE indexer_inexact_buckets (
  bucket timestamptz PRIMARY KEY
);
