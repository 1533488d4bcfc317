-- Uniswap V4 (issue 33): pools are entries of one PoolManager, named by their 32-byte pool id
-- (0x + 64 hex) wherever a pool is named; their fee may change with every swap, their hooks may
-- keep them from being a price source, and their currency0 may be the native currency.
ALTER TABLE indexer_pools DROP CONSTRAINT IF EXISTS indexer_pools_kind_check;
ALTER TABLE indexer_pools ADD CONSTRAINT indexer_pools_kind_check
  CHECK (kind IN ('v2', 'v3', 'solidly', 'syncswap', 'pancake-v3', 'algebra', 'etherex', 'v4'));
-- The hooks contract of a V4 pool (lower case; null without hooks and for other families).
ALTER TABLE indexer_pools ADD COLUMN hooks text;
-- token0 is the native currency (V4's address(0)), stored as the wrapped native token it is priced as.
ALTER TABLE indexer_pools ADD COLUMN native0 boolean NOT NULL DEFAULT false;
-- The tick after the block's last event (V4: which positions are active) and the LP fee of the
-- block's last swap (V4 dynamic fees); null for families that do not keep them.
ALTER TABLE indexer_pool_states ADD COLUMN tick integer;
ALTER TABLE indexer_pool_states ADD COLUMN fee integer;

ALTER TABLE pools DROP CONSTRAINT IF EXISTS pools_address_check;
ALTER TABLE pools ADD CONSTRAINT pools_address_check CHECK (address ~ '^0x([0-9a-f]{40}|[0-9a-f]{64})$');
-- EIP-55 hooks address, and why the pool is never a price source (null: it can be one).
ALTER TABLE pools ADD COLUMN hooks text;
ALTER TABLE pools ADD COLUMN price_source_exclusion text;
ALTER TABLE pools ADD COLUMN token0_native boolean NOT NULL DEFAULT false;
ALTER TABLE pools ADD COLUMN token1_native boolean NOT NULL DEFAULT false;
