-- Circulating supply and market cap (issue 19). The indexer reads, at one block, totalSupply() and
-- the balances of the burn addresses, of the token contract itself and of the token's configured
-- excluded wallets (the network token: its supply configuration), and keeps the figure with the
-- block (and its chain time) of the token's last read: which tokens are due for a read is derived
-- from these, so a restart picks exactly what an uninterrupted run would. The API row carries the
-- figure and the market cap it gives (USD, exact numeric like fdv); both are null until the first
-- successful read. No ORDER BY index on market_cap: since 005 the API orders in
-- memory, and an index per direction would only cost every indexer write.
ALTER TABLE indexer_tokens ADD COLUMN circulating_supply numeric(78, 0);
ALTER TABLE indexer_tokens ADD COLUMN circulating_block bigint;
ALTER TABLE indexer_tokens ADD COLUMN circulating_read_at timestamptz;

ALTER TABLE tokens ADD COLUMN circulating_supply numeric(78, 0) CHECK (circulating_supply >= 0);
ALTER TABLE tokens ADD COLUMN market_cap numeric CHECK (market_cap >= 0);
