-- Etherex legacy pairs (Uniswap V2 events, Solidly math, stable flag read from the pair): their own
-- pool kind, so their logs are decoded by their family only.
ALTER TABLE indexer_pools DROP CONSTRAINT IF EXISTS indexer_pools_kind_check;
ALTER TABLE indexer_pools ADD CONSTRAINT indexer_pools_kind_check
  CHECK (kind IN ('v2', 'v3', 'solidly', 'syncswap', 'pancake-v3', 'algebra', 'etherex'));
