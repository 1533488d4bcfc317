-- Token trust (spec: Token.spamReasons, Token.security, TokenInfo.priceSource as a PriceAnchor):
-- the lures found, the security score with its reasons, and what kind of source prices the token.
-- Pools keep the time they were created (pool age) and each stored state the time of its block
-- (a token's priceUpdatedAt is the last event of its price-source pool).
ALTER TABLE tokens
  ADD COLUMN spam_reasons jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN security_score integer NOT NULL DEFAULT 0 CHECK (security_score BETWEEN 0 AND 100),
  ADD COLUMN security_reasons jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN price_source_kind text CHECK (price_source_kind IN ('pool', 'usd-feed', 'usd-peg'));


ALTER TABLE indexer_pools ADD COLUMN created_at timestamptz;
ALTER TABLE indexer_pool_states ADD COLUMN block_time timestamptz;

-- The USD feed's answers (a Chainlink-style aggregator): rolled back with their block on a reorg.
CREATE TABLE indexer_feed_answers (
  feed          text NOT NULL,
  block_number  bigint NOT NULL,
  log_index     integer NOT NULL,
  answer        numeric(78, 0) NOT NULL,
  decimals      integer NOT NULL CHECK (decimals BETWEEN 0 AND 36),
  updated_at    timestamptz NOT NULL,
  PRIMARY KEY (feed, block_number, log_index)
);
CREATE INDEX indexer_feed_answers_block ON indexer_feed_answers (block_number);
