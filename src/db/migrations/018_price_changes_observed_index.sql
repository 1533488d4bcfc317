-- A forward batch rewrites the token rows whose price-change windows (1 h, 6 h, 24 h, 7 d back from
-- the last indexed block) moved over a stored price change since the batch before, not every priced
-- token (10,800 on a Linea-sized catalogue, each batch): this index finds those changes by time.
CREATE INDEX indexer_price_changes_observed ON indexer_price_changes (observed_at);
