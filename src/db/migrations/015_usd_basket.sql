-- The USD anchor is a basket of stablecoins (issue 37): the reference stablecoin is priced by the
-- basket (`usd-basket`, which replaces the single-stablecoin peg, a basket of one); the feed prices
-- the wrapped native token without stablecoins or when the basket leaves USD (`usd-feed`).
UPDATE tokens SET price_source_kind = 'usd-basket' WHERE price_source_kind = 'usd-peg';
ALTER TABLE tokens DROP CONSTRAINT IF EXISTS tokens_price_source_kind_check;
ALTER TABLE tokens ADD CONSTRAINT tokens_price_source_kind_check CHECK (price_source_kind IN ('pool', 'usd-feed', 'usd-basket'));
-- price_updated_at is the time of the block in which current_price took its value; this column is
-- how fresh the token's own market is: the latest event of its price-source pool (the feed's own
-- update time for a feed-priced token, the latest event of the basket's pools for the reference).
ALTER TABLE tokens ADD COLUMN market_updated_at timestamptz;
