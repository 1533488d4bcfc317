-- Chain indexer state: checkpoint, recent block hashes (reorg detection), token metadata as read
-- from the chain, pools with their state per block, and every price change (rollback + 24 h variation).
-- No foreign keys to tokens: the API tables can be truncated without touching indexer state.

CREATE TABLE indexer_checkpoint (
  id            integer PRIMARY KEY CHECK (id = 1),
  chain_id      bigint NOT NULL,
  block_number  bigint NOT NULL,
  block_hash    text NOT NULL,
  block_time    timestamptz NOT NULL,
  written_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE indexer_blocks (
  block_number  bigint PRIMARY KEY,
  block_hash    text NOT NULL,
  block_time    timestamptz NOT NULL
);

CREATE TABLE indexer_tokens (
  address           text PRIMARY KEY,
  name              text NOT NULL,
  symbol            text NOT NULL,
  decimals          integer NOT NULL,
  -- false when decimals() reverted, is missing or answered > 255: the token is never priced
  decimals_known    boolean NOT NULL,
  listed            boolean NOT NULL,
  logo              text,
  total_supply      numeric(78, 0) NOT NULL,
  supply_block      bigint NOT NULL,
  first_seen_block  bigint NOT NULL,
  first_seen_at     timestamptz NOT NULL
);
CREATE INDEX indexer_tokens_first_seen ON indexer_tokens (first_seen_block);

CREATE TABLE indexer_pools (
  address        text PRIMARY KEY,
  kind           text NOT NULL CHECK (kind IN ('v2', 'v3')),
  factory        text NOT NULL,
  token0         text NOT NULL,
  token1         text NOT NULL,
  fee            integer,
  created_block  bigint NOT NULL
);
CREATE INDEX indexer_pools_created ON indexer_pools (created_block);

-- State of a pool after the last event of a block; the latest row is the current state.
CREATE TABLE indexer_pool_states (
  pool            text NOT NULL,
  block_number    bigint NOT NULL,
  reserve0        numeric(78, 0),
  reserve1        numeric(78, 0),
  sqrt_price_x96  numeric(78, 0),
  liquidity       numeric(78, 0),
  PRIMARY KEY (pool, block_number)
);
CREATE INDEX indexer_pool_states_block ON indexer_pool_states (block_number);

-- Every block where a token's USD price changed; price null = no longer priced.
CREATE TABLE indexer_price_changes (
  token         text NOT NULL,
  block_number  bigint NOT NULL,
  price         numeric,
  observed_at   timestamptz NOT NULL,
  PRIMARY KEY (token, block_number)
);
CREATE INDEX indexer_price_changes_time ON indexer_price_changes (token, observed_at);
CREATE INDEX indexer_price_changes_block ON indexer_price_changes (block_number);
