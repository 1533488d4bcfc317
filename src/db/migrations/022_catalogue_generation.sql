-- A generation of the token catalogue's own: it moves only when token or pool rows are deleted (a
-- reorg), while `generation` also moves when history rows are (a history range filled deletes the
-- carried price changes and candles it replaces). API processes reload the tokens in full on the
-- first, the price histories on the second.
ALTER TABLE data_version ADD COLUMN catalogue_generation bigint NOT NULL DEFAULT 0;
