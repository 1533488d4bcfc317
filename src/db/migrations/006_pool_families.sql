-- DEX families beyond Uniswap V2/V3 (issue 18): a pool's kind names its family, stable-capable
-- families (Solidly, SyncSwap) record the pool type, and concentrated-liquidity positions are kept
-- as the Mint/Burn changes that made them (rolled back by block like everything else).
ALTER TABLE indexer_pools DROP CONSTRAINT IF EXISTS indexer_pools_kind_check;
ALTER TABLE indexer_pools ADD CONSTRAINT indexer_pools_kind_check
  CHECK (kind IN ('v2', 'v3', 'solidly', 'syncswap', 'pancake-v3', 'algebra'));
ALTER TABLE indexer_pools ADD COLUMN stable boolean;

-- One row per Mint (liquidity > 0) or Burn (< 0) of a concentrated-liquidity pool.
CREATE TABLE indexer_pool_positions (
  pool          text NOT NULL,
  block_number  bigint NOT NULL,
  log_index     integer NOT NULL,
  tick_lower    integer NOT NULL,
  tick_upper    integer NOT NULL,
  liquidity     numeric(78, 0) NOT NULL,
  PRIMARY KEY (pool, block_number, log_index)
);
CREATE INDEX indexer_pool_positions_block ON indexer_pool_positions (block_number);
