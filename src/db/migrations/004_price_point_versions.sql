-- Incremental reads of hourly prices for API processes (as 003 did for tokens): every price-point
-- write stamps the data version it lands in; readers load the rows stamped above theirs.
ALTER TABLE price_points ADD COLUMN row_version bigint NOT NULL DEFAULT 0;
CREATE INDEX price_points_row_version ON price_points (row_version);
