-- OHLCV candles and retention (issue 22). The indexer rolls every price change and swap of a batch
-- into one row per (token, interval, bucket) with activity; intervals without any are not stored
-- (a reader carries the previous close). Prices are the token's USD price series (the changes in
-- indexer_price_changes); open/high/low/close are null only on rows of swaps before the token's
-- first price. No foreign key to tokens, like the indexer tables: a reorg removes rows by block.
CREATE TABLE candles (
  token        text NOT NULL,
  interval_s   integer NOT NULL CHECK (interval_s IN (300, 900, 3600, 14400, 86400)),
  -- start of the interval (UTC, a multiple of interval_s since the epoch)
  bucket       timestamptz NOT NULL,
  open         numeric CHECK (open >= 0),
  high         numeric CHECK (high >= 0),
  low          numeric CHECK (low >= 0),
  close        numeric CHECK (close >= 0),
  -- USD value of the swaps (each at the token's price at the end of its block), base units, count
  volume_usd   numeric NOT NULL DEFAULT 0 CHECK (volume_usd >= 0),
  volume       numeric(78, 0) NOT NULL DEFAULT 0 CHECK (volume >= 0),
  swaps        integer NOT NULL DEFAULT 0 CHECK (swaps >= 0),
  -- the newest block that contributed: a reorg below it rebuilds the row
  last_block   bigint NOT NULL,
  PRIMARY KEY (token, interval_s, bucket)
);
-- Pruning walks an interval's oldest buckets; a reorg finds an interval's newest ones.
CREATE INDEX candles_interval_bucket ON candles (interval_s, bucket);

-- How far each pruned table is complete: a read at or after kept_from (and, for price changes,
-- at or after block kept_from_block) is answered exactly; an earlier one is refused. Pruning moves
-- it forward as it deletes.
CREATE TABLE retention_horizons (
  name             text PRIMARY KEY,
  kept_from        timestamptz NOT NULL,
  kept_from_block  bigint
);
