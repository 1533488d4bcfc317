-- A step that reprices much of the catalogue at once (a USD feed round) commits its rows and its
-- checkpoint without rolling its price changes and swaps into the candles; the indexer rolls them
-- up right after, in a transaction of its own (docs/indexer.md, "A step that reprices the whole
-- catalogue"). Until then candles_pending_from is the first block whose records the candles lack
-- and candles_through_time the time of the block before it: the candle series ends there.
ALTER TABLE indexer_checkpoint ADD COLUMN candles_pending_from bigint, ADD COLUMN candles_through_time timestamptz;
