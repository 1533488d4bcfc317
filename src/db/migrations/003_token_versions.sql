-- Incremental reads for API processes: every token write stamps the data version it lands in,
-- and a generation counter moves when rows are deleted (a reorg), which calls for a full reload.
ALTER TABLE tokens ADD COLUMN row_version bigint NOT NULL DEFAULT 0;
CREATE INDEX tokens_row_version ON tokens (row_version);
ALTER TABLE data_version ADD COLUMN generation bigint NOT NULL DEFAULT 0;
