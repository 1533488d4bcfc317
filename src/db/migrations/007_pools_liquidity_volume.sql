-- A token's pools and its USD liquidity and 24 h volume (issue 18). The indexer writes one API row
-- per pool (family, tokens, USD liquidity, spot price, 24 h swaps and volume), each token's summed
-- liquidity, 24 h volume and price source, and every swap row's amount and USD value at the price of
-- its block. Pool rows are stamped with the data version like tokens (003), for incremental reads.
ALTER TABLE tokens ADD COLUMN liquidity numeric CHECK (liquidity >= 0);
ALTER TABLE tokens ADD COLUMN volume24h numeric NOT NULL DEFAULT 0 CHECK (volume24h >= 0);
-- The pool currentPrice comes from (lower-case address); null for stablecoins and unpriced tokens.
ALTER TABLE tokens ADD COLUMN price_source text;
CREATE INDEX tokens_price_source ON tokens (price_source) WHERE price_source IS NOT NULL;

-- Base units of the row's token the swap moved, and their USD value at the token's price at the
-- end of the swap's block (null while the token had no price).
ALTER TABLE swaps ADD COLUMN amount numeric(78, 0) NOT NULL DEFAULT 0;
ALTER TABLE swaps ADD COLUMN value_usd numeric;
CREATE INDEX swaps_pool_time ON swaps (pool, occurred_at);

-- The price source with each price change, so a restart or a rollback knows it again.
ALTER TABLE indexer_price_changes ADD COLUMN source text;

CREATE TABLE pools (
  address           text PRIMARY KEY CHECK (address ~ '^0x[0-9a-f]{40}$'),
  checksum_address  text NOT NULL,
  dex               text NOT NULL,
  family            text NOT NULL,
  fee               integer,
  stable            boolean,
  token0            text NOT NULL,
  token0_checksum   text NOT NULL,
  token0_symbol     text NOT NULL,
  token1            text NOT NULL,
  token1_checksum   text NOT NULL,
  token1_symbol     text NOT NULL,
  liquidity         numeric CHECK (liquidity >= 0),
  price             numeric CHECK (price >= 0),
  volume24h         numeric NOT NULL DEFAULT 0 CHECK (volume24h >= 0),
  swaps24h          integer NOT NULL DEFAULT 0,
  -- block that created the pool: a reorg below it removes the row again
  created_block     bigint NOT NULL,
  row_version       bigint NOT NULL DEFAULT 0
);
CREATE INDEX pools_row_version ON pools (row_version);
CREATE INDEX pools_created ON pools (created_block);
