-- The chain time of a head-first bootstrap's block: each window edge walks forward from it,
-- back-dated by its window, so a history range written later knows which of its buckets an edge has
-- already passed (indexer/exactEdgeTimes.ts). Null for a forward index and for a bootstrap stored
-- before this column (then only the buckets the edges are in count as passed).
ALTER TABLE indexer_checkpoint ADD COLUMN bootstrap_time timestamptz;
