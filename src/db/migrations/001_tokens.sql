-- Tokens, their hourly prices and the swaps that feed the rolling 24 h counters.
-- uint256 amounts are numeric(78,0); USD prices and valuations are exact numerics.

CREATE TABLE tokens (
  address                text PRIMARY KEY CHECK (address ~ '^0x[0-9a-f]{40}$'),
  checksum_address       text NOT NULL,
  name                   text NOT NULL,
  symbol                 text NOT NULL,
  decimals               integer NOT NULL CHECK (decimals BETWEEN 0 AND 255),
  logo                   text,
  total_supply           numeric(78, 0) NOT NULL CHECK (total_supply >= 0),
  current_price          numeric CHECK (current_price >= 0),
  price_updated_at       timestamptz,
  last24h_variation      numeric,
  last24h_variation_abs  numeric GENERATED ALWAYS AS (abs(last24h_variation)) STORED,
  fdv                    numeric CHECK (fdv >= 0),
  sells                  integer NOT NULL DEFAULT 0,
  buys                   integer NOT NULL DEFAULT 0,
  swaps                  integer NOT NULL DEFAULT 0,
  is_possible_spam       boolean NOT NULL DEFAULT false,
  is_secure              boolean NOT NULL DEFAULT false,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL,
  -- block that first brought the token in: a reorg below it removes the token again
  created_block          bigint NOT NULL DEFAULT 0
);

-- One index per order column and direction, each ending in the address tiebreak, NULLS LAST.
CREATE INDEX tokens_name_asc        ON tokens ((lower(name) COLLATE "C") ASC, address);
CREATE INDEX tokens_name_desc       ON tokens ((lower(name) COLLATE "C") DESC, address);
CREATE INDEX tokens_symbol_asc      ON tokens ((lower(symbol) COLLATE "C") ASC, address);
CREATE INDEX tokens_symbol_desc     ON tokens ((lower(symbol) COLLATE "C") DESC, address);
CREATE INDEX tokens_decimals_asc    ON tokens (decimals ASC, address);
CREATE INDEX tokens_decimals_desc   ON tokens (decimals DESC, address);
CREATE INDEX tokens_price_asc       ON tokens (current_price ASC NULLS LAST, address);
CREATE INDEX tokens_price_desc      ON tokens (current_price DESC NULLS LAST, address);
CREATE INDEX tokens_price_at_asc    ON tokens (price_updated_at ASC NULLS LAST, address);
CREATE INDEX tokens_price_at_desc   ON tokens (price_updated_at DESC NULLS LAST, address);
CREATE INDEX tokens_created_asc     ON tokens (created_at ASC, address);
CREATE INDEX tokens_created_desc    ON tokens (created_at DESC, address);
CREATE INDEX tokens_updated_asc     ON tokens (updated_at ASC, address);
CREATE INDEX tokens_updated_desc    ON tokens (updated_at DESC, address);
CREATE INDEX tokens_var_asc         ON tokens (last24h_variation ASC NULLS LAST, address);
CREATE INDEX tokens_var_desc        ON tokens (last24h_variation DESC NULLS LAST, address);
CREATE INDEX tokens_var_abs_asc     ON tokens (last24h_variation_abs ASC NULLS LAST, address);
CREATE INDEX tokens_var_abs_desc    ON tokens (last24h_variation_abs DESC NULLS LAST, address);
CREATE INDEX tokens_sells_asc       ON tokens (sells ASC, address);
CREATE INDEX tokens_sells_desc      ON tokens (sells DESC, address);
CREATE INDEX tokens_buys_asc        ON tokens (buys ASC, address);
CREATE INDEX tokens_buys_desc       ON tokens (buys DESC, address);
CREATE INDEX tokens_swaps_asc       ON tokens (swaps ASC, address);
CREATE INDEX tokens_swaps_desc      ON tokens (swaps DESC, address);
CREATE INDEX tokens_spam_asc        ON tokens (is_possible_spam ASC, address);
CREATE INDEX tokens_spam_desc       ON tokens (is_possible_spam DESC, address);
CREATE INDEX tokens_supply_asc      ON tokens (total_supply ASC, address);
CREATE INDEX tokens_supply_desc     ON tokens (total_supply DESC, address);
CREATE INDEX tokens_fdv_asc         ON tokens (fdv ASC NULLS LAST, address);
CREATE INDEX tokens_fdv_desc        ON tokens (fdv DESC NULLS LAST, address);
CREATE INDEX tokens_secure          ON tokens (is_secure);

-- The last price seen in each hour (UTC) per token.
CREATE TABLE price_points (
  token         text NOT NULL REFERENCES tokens (address) ON DELETE CASCADE,
  hour          timestamptz NOT NULL,
  price         numeric NOT NULL CHECK (price >= 0),
  observed_at   timestamptz NOT NULL,
  block_number  bigint NOT NULL,
  PRIMARY KEY (token, hour)
);
CREATE INDEX price_points_block ON price_points (block_number);

-- One row per (swap event, token of its pool); side is from the token's point of view.
CREATE TABLE swaps (
  block_number  bigint NOT NULL,
  log_index     integer NOT NULL,
  token         text NOT NULL REFERENCES tokens (address) ON DELETE CASCADE,
  side          text NOT NULL CHECK (side IN ('buy', 'sell')),
  tx_hash       text NOT NULL,
  pool          text NOT NULL,
  occurred_at   timestamptz NOT NULL,
  PRIMARY KEY (block_number, log_index, token)
);
CREATE INDEX swaps_occurred_at ON swaps (occurred_at);
CREATE INDEX swaps_token_time ON swaps (token, occurred_at);

-- A counter every write bumps: API processes use it for ETags and to drop cached pages.
CREATE TABLE data_version (
  id       integer PRIMARY KEY CHECK (id = 1),
  version  bigint NOT NULL
);
INSERT INTO data_version (id, version) VALUES (1, 0);
