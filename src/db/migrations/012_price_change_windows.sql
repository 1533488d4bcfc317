-- Price change windows (issue 21): percent change of current_price against the price in force 1 h,
-- 6 h and 7 d of chain time before the last indexed block, written by the indexer with the token
-- row (the 24 h window is last24h_variation, one column for both). Null when the token had no
-- price at the window's start or has none now. No index: the read model orders in memory (005).
ALTER TABLE tokens ADD COLUMN price_change_1h numeric;
ALTER TABLE tokens ADD COLUMN price_change_6h numeric;
ALTER TABLE tokens ADD COLUMN price_change_7d numeric;
